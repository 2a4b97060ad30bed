"""Kept only for ``cli.py``'s ``serve``, which imports ``web_services`` from here: the service's
solver endpoints and AI are built in ``solver_services.py``. Delete this once ``cli.py`` imports that."""

from patchwork_opt.apps.web.solver_services import web_services as web_services
