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
config.substitutions.append(("%shared_root",
                             os.path.join(os.path.dirname(config.tessel_src_root),
                                          "shared")))
config.substitutions.append(("%cuda_path", config.cuda_path))
config.substitutions.append(("%tessel_plugin",
                             os.path.join(config.tessel_obj_root, "lib",
                                          "libTesselPlugin.so")))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

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
    ToolSubst("mlir-opt", unresolved="fatal"),
    ToolSubst("mlir-runner", unresolved="fatal"),
]
llvm_config.add_tool_substitutions(tools, tool_dirs)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.tessel_tools_dir, append_path=True)
config.substitutions.append(("%mlir_lib_dir",
                             os.path.join(os.path.dirname(config.llvm_tools_dir),
                                          "lib")))
