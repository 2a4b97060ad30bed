"""The learned value: the position's features, the self-play data set, training (the ``train``
extra), compiled inference at play time, and how good its win chances are (``forecast``)."""
