/*
 * proxy.h: what the proxy trainers share: option values, a seeded random
 * number generator, MLCommons mlperf_logging output and the ending of a
 * diverged run.  Each proxy links the objects of common/; nothing here
 * allocates.
 */
#ifndef HPOD_PROXY_H
#define HPOD_PROXY_H

#include <stddef.h>
#include <stdint.h>

#define EXIT_DIVERGED	2
#define EXIT_USAGE	64

/*
 * Call first: prog names the program in messages, file its source file in
 * the "file" metadata of every MLLOG line (whose "lineno" is that of the
 * call that logged it, in the trainer or in common/); both must outlive
 * the run.
 */
void		 proxy_init(const char *prog, const char *file);
/* The program's name, for messages. */
const char	*proxy_prog(void);

/* Complain about the value of option name and exit 64. */
_Noreturn void	 bad_option(const char *name, const char *arg,
		    const char *why);
/* Option values; each exits 64 through bad_option() when arg is bad. */
double		 parse_real(const char *name, const char *arg, double min,
		    double max);
int		 parse_int(const char *name, const char *arg, int min,
		    int max);
uint64_t	 parse_seed(const char *name, const char *arg);
int		 parse_word(const char *name, const char *arg,
		    const char *const *names, int n);

/* splitmix64: a state is any uint64_t, rng_stream() derives seeds. */
uint64_t	 rng_next(uint64_t *s);
uint64_t	 rng_stream(uint64_t seed, uint64_t stream);
double		 rng_uniform(uint64_t *s);
double		 rng_normal(uint64_t *s);
void		 shuffle(int *perm, int n, uint64_t *s);

/* mlperf_logging output on stdout, flushed line by line. */
long long	 now_ms(void);
void		 json_num(char *buf, size_t len, double d);
void		 mllog(const char *type, const char *key, const char *value,
		    int line, const char *meta);

/* A POINT_IN_TIME event of a number at epoch and, if step >= 0, step. */
void		 mllog_value(const char *key, double value, int epoch,
		    long step, int line);
/* A POINT_IN_TIME event of a count, a number or a string. */
void		 mllog_uint(const char *key, unsigned long long u, int line);
void		 mllog_real(const char *key, double d, int line);
void		 mllog_string(const char *key, const char *s, int line);

#define MLLOG_EVENT(key, value)	\
	mllog("POINT_IN_TIME", key, value, __LINE__, "")
#define MLLOG_UINT(key, u)	mllog_uint(key, u, __LINE__)
#define MLLOG_REAL(key, d)	mllog_real(key, d, __LINE__)
#define MLLOG_STRING(key, s)	mllog_string(key, s, __LINE__)
#define MLLOG_START(key, meta)	\
	mllog("INTERVAL_START", key, "null", __LINE__, meta)
#define MLLOG_END(key, meta)	\
	mllog("INTERVAL_END", key, "null", __LINE__, meta)

/*
 * Say on stderr that training diverged at epoch (what = value), log an
 * aborted run_stop at the caller's line and return EXIT_DIVERGED.
 */
int		 diverged(int epoch, const char *what, double value,
		    int line);

#endif
