"""patchwork-opt: a Patchwork rules engine, quilt models and AI players."""
