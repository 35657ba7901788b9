/*
 * paths.h: where hpod keeps its socket, ledger and attempt directories,
 * and where it finds its helper programs and workload specs.
 * Every returned string is malloc'ed and owned by the caller; free the
 * vectors with workload_strv_free().
 */
#ifndef HPOD_PATHS_H
#define HPOD_PATHS_H

/* $XDG_RUNTIME_DIR/hpod/hpod.sock, or /tmp/hpod-UID/hpod.sock. */
char	*paths_default_socket(void);
/* $XDG_STATE_HOME/hpod/NAME, or ~/.local/state/hpod/NAME. */
char	*paths_default_state(const char *name);
/* The directory holding the running executable. */
char	*paths_exe_dir(void);
/*
 * Directories searched for programs (hpo-trial, proxy trainers): the
 * executable's own directory, ../libexec/hpod beside it, LIBEXECDIR.
 */
char	**paths_progdirs(void);
/*
 * Directories searched for workload specs: extra (colon-separated, may be
 * NULL), $HPOD_WORKLOAD_PATH, ../workloads and ../share/hpod/workloads
 * beside the executable, DATADIR/workloads.
 */
char	**paths_workdirs(const char *extra);
/* mkdir -p; what it creates gets mode.  Return 0 or -1 (errno). */
int	 paths_mkdir(const char *path, int mode);
/* The directory part of path ("." if none). */
char	*paths_dirname(const char *path);

#endif
