"""Benchmarks of the engine, the AI and the web service (``patchwork bench ...``).

Each prints figures and ratios against a baseline run in the same process.
"""
