"""The engine protocol (docs/engine.md): ``protocol`` reads and writes its lines, ``server`` is
``patchwork engine``'s loop, ``client`` the ``engine:CMD`` player of matches."""
