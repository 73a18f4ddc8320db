"""pip install --no-build-isolation ./python: builds contend._core with CMake (the repository's
own build, CONTEND_PYTHON=ON, no GUI and no C++ tests) and installs the contend package.

Everything comes from Debian 12's packages (scripts/install-deps.sh): setuptools and wheel
for pip, pybind11 and the compilers for the module, numpy and pandas at run time; nothing is
fetched (pass --no-index to be sure). The CMake build folder is <repo>/build-python
(CONTEND_PYTHON_BUILD_DIR moves it) and is kept, so a second install only relinks; ccache is
used when installed, as scripts/build.sh does.
"""
import os
import re
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def project_version():
    # The one place the version is written: project(VERSION) in the top CMakeLists.txt.
    with open(os.path.join(ROOT, "CMakeLists.txt"), encoding="utf-8") as f:
        return re.search(r"project\(Contend VERSION ([0-9.]+)", f.read()).group(1)


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build_dir = os.environ.get("CONTEND_PYTHON_BUILD_DIR") or os.path.join(ROOT, "build-python")
        configure = ["cmake", "-S", ROOT, "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release", "-DCONTEND_BUILD_GUI=OFF",
                     "-DCONTEND_BUILD_TESTS=OFF", "-DCONTEND_PYTHON=ON", f"-DPython3_EXECUTABLE={sys.executable}"]
        if shutil.which("ninja"):
            configure += ["-G", "Ninja"]
        env = dict(os.environ)
        if shutil.which("ccache") and env.get("CONTEND_CCACHE", "1") != "0":
            configure += ["-DCMAKE_CXX_COMPILER_LAUNCHER=ccache", "-DCMAKE_C_COMPILER_LAUNCHER=ccache"]
            env.setdefault("CCACHE_BASEDIR", ROOT)
            env.setdefault("CCACHE_NOHASHDIR", "1")
        subprocess.check_call(configure, env=env)
        jobs = os.environ.get("CONTEND_JOBS") or str(os.cpu_count() or 2)
        subprocess.check_call(["cmake", "--build", build_dir, "--target", "contend_python", "-j", jobs], env=env)
        name = os.path.basename(self.get_ext_filename(ext.name))
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(os.path.join(build_dir, "python", "contend", name), target)


setup(
    name="contend",
    version=project_version(),
    description="Contend's core in Python: operator contention in AI profiling traces, as pandas DataFrames",
    packages=["contend"],
    package_dir={"contend": "contend"},
    ext_modules=[Extension("contend._core", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    python_requires=">=3.9",
    install_requires=["numpy", "pandas"],
    zip_safe=False,
)
