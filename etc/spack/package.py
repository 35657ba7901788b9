# Spack recipe for hpod: installs from the tarball `make dist` writes.
#
#   make dist                                   # hpod-VERSION.tar.gz
#   spack repo create ~/spack-hpod && mkdir -p ~/spack-hpod/packages/hpod
#   cp etc/spack/package.py ~/spack-hpod/packages/hpod/ && spack repo add ~/spack-hpod
#   HPOD_DIST_DIR=$PWD spack install --no-checksum hpod@0.1.0        # or ~slurm
#
# A centre that mirrors the tarball sets url to its mirror and adds the
# sha256 that `spack checksum hpod` prints.
import os

from spack.package import *


class Hpod(MakefilePackage):
    """Hyperparameter-search orchestration daemon for HPC deep learning:
    runs HPO campaigns as Slurm jobs or local processes, records every
    trial in a SQLite ledger and reports their honest cost."""

    url = "file://{0}/hpod-0.1.0.tar.gz".format(
        os.environ.get("HPOD_DIST_DIR", os.getcwd()))

    license("GPL-2.0-or-later")

    version("0.1.0")

    variant("slurm", default=True,
            description="The Slurm backend (libslurm); without it, local "
            "and replay backends only")

    depends_on("c", type="build")
    depends_on("gmake", type="build")
    depends_on("pkgconfig", type="build")
    depends_on("libuv")
    depends_on("sqlite")
    depends_on("cjson")
    depends_on("slurm", when="+slurm")

    def _args(self):
        args = ["PREFIX={0}".format(self.prefix), "BUILD=build"]
        if self.spec.satisfies("~slurm"):
            args.append("SLURM=no")
        else:
            slurm = self.spec["slurm"]
            args.append("CPPFLAGS=-I{0}".format(slurm.prefix.include))
            args.append("SLURM_LIBS=-L{0} -Wl,-rpath,{0} -lslurm".format(
                slurm.prefix.lib))
        return args

    @property
    def build_targets(self):
        return self._args() + ["all"]

    @property
    def install_targets(self):
        return self._args() + ["install"]
