"""Asks LibreOffice whether a password lifts a sheet's protection.

    python3 unprotect.py SOFFICE FILE PASSWORD

Runs with the system's Python and its UNO bridge (python3-uno), not the
test venv. Starts LibreOffice headless on a private pipe and profile,
opens FILE, and for its first sheet reports whether it is protected,
whether a wrong password lifts the protection (it must not) and whether
PASSWORD does, as JSON. (LibreOffice 7.4 does not load a workbook's
structure protection from .xlsx, so that one cannot be asked about.)
"""
import json
import os
import subprocess
import sys
import tempfile
import time

import uno
from com.sun.star.beans import PropertyValue
from com.sun.star.lang import IllegalArgumentException


def prop(name, value):
    p = PropertyValue()
    p.Name, p.Value = name, value
    return p


def check(target, password):
    out = {"protected": bool(target.isProtected())}
    for key, attempt in (("wrong_unlocks", password + "x"), ("right_unlocks", password)):
        try:
            target.unprotect(attempt)
        except IllegalArgumentException:
            pass
        out[key] = not target.isProtected()
    return out


def main():
    soffice, path, password = sys.argv[1:4]
    pipe = "sheetstream_unprotect_%d" % os.getpid()
    with tempfile.TemporaryDirectory() as profile:
        proc = subprocess.Popen([soffice, "-env:UserInstallation=file://" + profile, "--headless", "--norestore",
                                 "--invisible", "--accept=pipe,name=%s;urp;" % pipe],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            local = uno.getComponentContext()
            resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
            ctx = None
            for _ in range(300):
                try:
                    ctx = resolver.resolve("uno:pipe,name=%s;urp;StarOffice.ComponentContext" % pipe)
                    break
                except Exception:
                    time.sleep(0.1)
            if ctx is None:
                raise SystemExit("LibreOffice did not answer on its pipe")
            desktop = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
            doc = desktop.loadComponentFromURL(uno.systemPathToFileUrl(os.path.abspath(path)), "_blank", 0,
                                               (prop("Hidden", True),))
            res = check(doc.Sheets.getByIndex(0), password)
            doc.close(True)
            print(json.dumps(res))
        finally:
            proc.terminate()
            proc.wait()


if __name__ == "__main__":
    main()
