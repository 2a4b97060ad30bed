"""``python -m patchwork_opt``: the same CLI as the ``patchwork`` console script.

This entry-point shim is the only place the package reaches the top-level CLI;
the library itself never imports it.
"""

from cli import main

if __name__ == "__main__":
    main()
