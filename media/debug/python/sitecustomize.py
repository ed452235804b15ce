# Loaded by Python at start-up when Zot: Debug Extension puts this folder
# first on PYTHONPATH: starts debugpy on a free loopback port and says which
# on stderr, where the editor reads it to attach. The extension then runs as
# usual; nothing here changes what it does.
import os
import sys

# debugpy's adapter is a Python child with this environment: without the
# mark it would start a debugger of its own, and so on.
if not os.environ.get("ZOT_DEBUGPY_STARTED"):
    os.environ["ZOT_DEBUGPY_STARTED"] = "1"
    try:
        import debugpy

        _host, _port = debugpy.listen(("127.0.0.1", 0))
        sys.stderr.write("zot-debugpy listening on %s:%d\n" % (_host, _port))
    except Exception as _error:  # the editor says what failed; the extension still runs
        sys.stderr.write("zot-debugpy could not start: %s\n" % (_error,))
    sys.stderr.flush()
