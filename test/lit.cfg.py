# -*- Python -*-
# lit configuration of Tessel's regression tests.

import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "TESSEL"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test", ".c"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tessel_obj_root, "test")
config.excludes = ["Inputs", "CMakeLists.txt", "README.md", "lit.cfg.py",
                   "lit.site.cfg.py", "Unit"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%tessel_src_root", config.tessel_src_root))
config.substitutions.append(("%tessel_obj_root", config.tessel_obj_root))
config.substitutions.append(("%shared_root",
                             os.path.join(os.path.dirname(config.tessel_src_root),
                                          "shared")))
config.substitutions.append(("%cuda_path", config.cuda_path))
config.substitutions.append(("%tessel_plugin",
                             os.path.join(config.tessel_obj_root, "lib",
                                          "libTesselPlugin.so")))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()
# Tests compile from scratch: no test reads what an earlier run (or the
# user's compiles) left in the compile cache; the cache's own tests name
# their directory (docs/CompileCache.md).
config.environment["TESSEL_CACHE_DIR"] = "off"

if config.have_ptxas:
    config.available_features.add("ptxas")
if config.have_python_package:
    config.available_features.add("python-package")
    config.substitutions.append(("%tessel_python_path",
                                 os.path.join(config.tessel_obj_root, "python")))
    config.substitutions.append(("%tessel_python", config.tessel_python))
if config.have_fasor:
    config.available_features.add("fasor")
shared = os.path.join(os.path.dirname(config.tessel_src_root), "shared")
if os.path.isdir(os.path.join(shared, "eval", "frontend-ir")):
    config.available_features.add("shared-models")

tool_dirs = [config.tessel_tools_dir, config.llvm_tools_dir]
tools = [
    "tessel-opt",
    "tessel-capi-test",
    "tessel-simulate",
    ToolSubst("mlir-opt", unresolved="fatal"),
    ToolSubst("mlir-runner", unresolved="fatal"),
]
llvm_config.add_tool_substitutions(tools, tool_dirs)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.tessel_tools_dir, append_path=True)
config.substitutions.append(("%mlir_lib_dir",
                             os.path.join(os.path.dirname(config.llvm_tools_dir),
                                          "lib")))

# A throwaway PostgreSQL server for the tests of records in PostgreSQL
# (feature `postgres`), started once per lit run and stopped when it ends;
# %{pg_fresh_db} NAME (re)creates the database NAME and %{pg_server} is the URL
# prefix of its databases (append NAME). When the server cannot start, the
# tests are UNSUPPORTED and lit says why.
import atexit
import subprocess

_pg_script = os.path.join(config.tessel_src_root, "scripts", "services",
                          "postgres-local.sh")
_pg_owner = os.getpid()
# Servers of other test runs may take the port this one picked: try again.
for _pg_attempt in range(3):
    _pg_dir = "/tmp/tessel-lit-pg-%d-%d" % (_pg_owner, _pg_attempt)
    try:
        _pg = subprocess.run([_pg_script, "start", _pg_dir],
                             capture_output=True, text=True, timeout=120,
                             env=dict(os.environ,
                                      TESSEL_PG_OWNER_PID=str(_pg_owner)))
        _pg_problem = "" if _pg.returncode == 0 else (
            _pg.stderr.strip() or "postgres-local.sh failed")
    except (OSError, subprocess.SubprocessError) as error:
        _pg, _pg_problem = None, str(error)
    if not _pg_problem:
        break
    subprocess.run([_pg_script, "stop", _pg_dir], capture_output=True)
    subprocess.run(["rm", "-rf", _pg_dir])
if not _pg_problem:
    _pg_url = _pg.stdout.strip().splitlines()[-1]

    def _stop_pg():
        if os.getpid() == _pg_owner:
            subprocess.run([_pg_script, "stop", _pg_dir], capture_output=True)
            subprocess.run(["rm", "-rf", _pg_dir])

    atexit.register(_stop_pg)
    config.available_features.add("postgres")
    config.substitutions.append(("%{pg_server}", _pg_url.rsplit("/", 1)[0] + "/"))
    config.substitutions.append(
        ("%{pg_server_wrong_password}",
         _pg_url.rsplit("/", 1)[0].replace("tessel:tessel@", "tessel:wrong@")
         + "/"))
    config.substitutions.append(
        ("%{pg_fresh_db}", "bash %s %s" % (os.path.join(
            os.path.dirname(_pg_script), "postgres-fresh-db.sh"), _pg_url)))
else:
    lit_config.warning("PostgreSQL tests are UNSUPPORTED: the local server "
                       "did not start: " + _pg_problem)

# A single-node Slurm cluster (scripts/services/slurm-local.sh) needs
# Debian's slurm-wlm and munge, and root; tests that start one are
# UNSUPPORTED without them, and lit says why.
import shutil

_slurm_missing = [tool for tool in ("munged", "slurmctld", "slurmd", "sbatch")
                  if not shutil.which(tool) and
                  not os.path.exists(os.path.join("/usr/sbin", tool))]
if _slurm_missing:
    lit_config.warning("Slurm tests are UNSUPPORTED: missing %s (Debian "
                       "packages slurm-wlm and munge)" % ", ".join(_slurm_missing))
elif os.geteuid() != 0:
    lit_config.warning("Slurm tests are UNSUPPORTED: slurmd must run as root")
else:
    config.available_features.add("slurm")
    config.substitutions.append(
        ("%{with_slurm}", os.path.join(os.path.dirname(_pg_script),
                                       "with-slurm.sh")))
