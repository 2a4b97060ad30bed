"""The analysis of a position: the searches run within one deadline with the learned value
(``run``), and every candidate move valued and put in words for hints and reviews (``position``)."""
