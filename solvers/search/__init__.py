"""The packing search: which placements of which patches cover the most."""
