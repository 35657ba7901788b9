#!/bin/sh
# tests/bench/tfhpo-to-replay.py, the converter of tf-hpo's logs: it
# tells the two logs apart by their header, turns a small log of each
# kind (written below, lines as the repository's) into the table worked
# out by hand, cuts a mnist-cnn run at a missing or non-finite point and
# counts it, and refuses an unknown header naming the file; the shipped
# mnist-cnn table is the converter's form, its profile's target follows
# bench-search.sh's rule, and a campaign on it runs through the engine.
. "$(dirname "$0")/lib.subr"
. "$(dirname "$0")/benchpy.subr"
CONV="python3 $TOP/tests/bench/tfhpo-to-replay.py"

# mnist-cnn: (2,2,512) complete, 3 intervals; (4,2,512) misses 2560, so
# only 1280 stays; (8,2,1024) has a NaN at 2560; lines of runs
# interleave, as in the log.
cat >"$T/cnn.csv" <<'CSV'
2016-08-11 22:51:00,956,Tag Name,Iteration,Testing Accuracy(128),Testing Accuracy(256),Testing Accuracy(512),Elapsed Time,L1,L2,L3
2016-08-11 22:51:03,343,cnn_mnist_test_acc_2_2_512,1280,0.093750,0.08984,0.08398,0.397,2,2,512
2016-08-11 22:51:03,410,cnn_mnist_test_acc_4_2_512,1280,0.218750,0.19922,0.20117,0.401,4,2,512
2016-08-11 22:51:03,420,cnn_mnist_test_acc_8_2_1024,1280,0.500000,0.50000,0.50000,0.5,8,2,1024
2016-08-11 22:51:03,427,cnn_mnist_test_acc_2_2_512,3840,0.500000,0.60000,0.70000,0.0417,2,2,512
2016-08-11 22:51:03,385,cnn_mnist_test_acc_2_2_512,2560,0.070312,0.11328,0.11328,0.0421,2,2,512
2016-08-11 22:51:03,430,cnn_mnist_test_acc_4_2_512,3840,0.900000,0.90000,0.90000,0.05,4,2,512
2016-08-11 22:51:03,440,cnn_mnist_test_acc_8_2_1024,2560,nan,nan,nan,0.05,8,2,1024
2016-08-11 22:51:03,450,cnn_mnist_test_acc_8_2_1024,3840,0.900000,0.90000,0.90000,0.05,8,2,1024
CSV
passes "a mnist-cnn log converts" $CONV "$T/cnn.csv" "$T/cnn.json"
has "runs cut and lines left out are counted" \
    "3 runs, 5 points, 2 runs cut at a missing, repeated or non-finite point (3 lines left out)" \
    "$T/out"
is "its workload is mnist-cnn" "$(jq -r .workload "$T/cnn.json")" mnist-cnn
is "its parameters are L1, L2, L3" \
    "$(jq -c '[.params[].name]' "$T/cnn.json")" '["L1","L2","L3"]'
is "one run per (L1, L2, L3), in order" \
    "$(jq -c '[.runs[].x]' "$T/cnn.json")" '[[2,2,512],[4,2,512],[8,2,1024]]'
is "values are 1 - the accuracy on 512 images, in Iteration order" \
    "$(jq -c '[.runs[].values]' "$T/cnn.json")" \
    '[[0.916,0.8867,0.3],[0.7988],[0.5]]'
is "epoch_s is the Elapsed Time of each interval" \
    "$(jq -c '[.runs[].epoch_s]' "$T/cnn.json")" \
    '[[0.397,0.0421,0.0417],[0.401],[0.5]]'
has "the table says where it comes from and what was cut" \
    'mnist-cnn_20160811.csv (commit 67c852c, MIT licence).*2 runs cut' \
    "$T/cnn.json"

# mnist-conv: the validation accuracy in percent every 100 steps, the
# time between lines, the evaluation at step 0 left out.
cat >"$T/conv.csv" <<'CSV'
2016-08-22 16:03:28,842,Tag Name,Step,Accuarcy1,Accuarcy2,Accuarcy3,Elapsed Time,L1,L2,L3
2016-08-22 16:03:31,586,4_2_2_512,0,12.500,8.680,8.920,1.54,2,2,512
2016-08-22 16:03:32,131,4_2_2_512,100,12.500,11.260,11.350,0.228,2,2,512
2016-08-22 16:03:33,000,4_2_2_512,200,50.000,60.000,61.000,0.2,2,2,512
CSV
passes "a mnist-conv log converts" $CONV "$T/conv.csv" "$T/conv.json"
is "its workload is mnist-conv" "$(jq -r .workload "$T/conv.json")" mnist-conv
is "values are 1 - the validation accuracy, step 0 left out" \
    "$(jq -c '.runs[0].values' "$T/conv.json")" '[0.8874,0.4]'
is "epoch_s is the time between lines" \
    "$(jq -c '.runs[0].epoch_s' "$T/conv.json")" '[0.55,0.87]'

# Neither header: refused, naming the file.
sed 's/Testing Accuracy(512)/Accuracy(512)/' "$T/cnn.csv" >"$T/odd.csv"
rc=0
$CONV "$T/odd.csv" "$T/odd.json" >"$T/out" 2>&1 || rc=$?
is "an unknown header is refused" "$rc" 1
has "naming the file and the header" \
    "$T/odd.csv: header .*Accuracy(512).* is neither" "$T/out"

# The shipped table and its profile.
profile mnist-cnn
is "the shipped table: 200 runs of 156 points" \
    "$(jq -c '[(.runs | length), ([.runs[].values | length] | unique)]' "$TABLE")" \
    '[200,[156]]'
rule=$(jq -r '[.runs[].values | min] as $b | ($b | length) as $n
    | [$b[] as $t | select(([$b[] | select(. <= $t)] | length) >= 0.14 * $n)
    | $t] | min' "$TABLE")
is "the target is the smallest value that 14% of its runs reach" \
    "$rule" "$TARGET"
hpod_run random 0 8 >"$T/r.txt"
is "random reaches it through the engine, 8 at a time" \
    "$(cut -d' ' -f1 "$T/r.txt")" 1
done_testing
