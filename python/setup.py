"""Builds the wheel's shared library from the Go source beside this
folder (the repository this file is in) with `go build -buildmode=c-shared`:
Go 1.26 and a C compiler are needed where the wheel is built, not where
it is installed. The wheel is a platform wheel (it holds native code)."""

import os
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)


class BuildWithGo(build_py):
    def run(self):
        super().run()
        target = os.path.abspath(os.path.join(self.build_lib, "sheetstream", "_sheetstream.so"))
        os.makedirs(os.path.dirname(target), exist_ok=True)
        env = dict(os.environ, CGO_ENABLED="1")
        subprocess.run(["go", "build", "-trimpath", "-buildmode=c-shared", "-o", target, "./python/lib"],
                       cwd=REPO, env=env, check=True)
        header = os.path.splitext(target)[0] + ".h"
        if os.path.exists(header):
            os.remove(header)


class NativeDistribution(Distribution):
    def has_ext_modules(self):
        return True  # a platform wheel: the shared library is native code


setup(cmdclass={"build_py": BuildWithGo}, distclass=NativeDistribution)
