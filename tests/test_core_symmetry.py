"""The board's symmetries are written once (``core.symmetry``): the fast canonical form is the
smallest image under the eight transforms the fill solvers use, and the one position key
(``State.key``) treats quilts equal up to them as one position only when asked to."""

from __future__ import annotations

import random

from conftest import late_positions

from patchwork_opt.core.bitboard import FULL, bit
from patchwork_opt.core.state import State
from patchwork_opt.core.symmetry import SYMMETRIES, canonical, transform


def _random_quilts(count: int, seed: int) -> list[int]:
    """Quilts of every density, from a few cells to nearly full."""
    rng = random.Random(seed)
    out = [0, FULL]
    while len(out) < count:
        density = rng.random()
        out.append(sum(1 << i for i in range(81) if rng.random() < density))
    return out


def test_canonical_is_the_smallest_of_the_eight_images_on_thousands_of_quilts() -> None:
    for quilt in _random_quilts(3000, seed=1):
        images = [transform(quilt, s) for s in range(SYMMETRIES)]
        assert canonical(quilt) == min(images)
        assert all(canonical(image) == canonical(quilt) for image in images)


def test_the_transforms_are_the_eight_symmetries_of_the_square() -> None:
    corner_pair = bit(0, 1) | bit(0, 0)  # no symmetry but the identity keeps it
    images = [transform(corner_pair, s) for s in range(SYMMETRIES)]
    assert len(set(images)) == SYMMETRIES and images[0] == corner_pair
    for quilt in _random_quilts(200, seed=2):
        for s in range(SYMMETRIES):  # each one maps the board onto itself and is undone by one of them
            image = transform(quilt, s)
            assert image.bit_count() == quilt.bit_count() and image <= FULL
            assert quilt in {transform(image, t) for t in range(SYMMETRIES)}


def test_the_symmetric_key_is_the_same_for_mirrored_quilts_and_the_plain_key_is_not() -> None:
    state = late_positions(4, 30)[0]
    mirrored = state.clone()
    mirrored.quilts = [transform(q, 4) for q in state.quilts]  # left-right
    assert state.quilts != mirrored.quilts
    assert state.key(symmetric=True) == mirrored.key(symmetric=True)
    assert state.key() != mirrored.key() and state != mirrored
    other = state.clone()
    other.buttons[0] += 1
    assert other.key(symmetric=True) != state.key(symmetric=True)


def test_equal_positions_have_equal_keys() -> None:
    a, b = State.new(seed=3), State.new(seed=3)
    assert a.key() == b.key() and a.key(symmetric=True) == b.key(symmetric=True) and a == b
