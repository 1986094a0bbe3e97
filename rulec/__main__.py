import sys

try:  # Ctrl-C while Python is still importing rulec: no traceback either
    from rulec.cli.main import main

    status = main()
except KeyboardInterrupt:
    print("\ninterrupted", file=sys.stderr)
    status = 130
raise SystemExit(status)
