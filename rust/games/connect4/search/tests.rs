use super::*;
use crate::engine::budget::unlimited;
use crate::games::connect4::plain::plain_score;
use crate::games::connect4::{columns_of_text, play_columns, pons_score as pons_of};

#[test]
fn columns_go_from_the_centre_out_on_every_width() {
    for width in 1..=MAX_WIDTH {
        // Nearest the centre first, the left of two equally near first.
        let mut order: Vec<u32> = (0..width as u32).collect();
        order.sort_by_key(|&col| ((2 * col as i32 - (width as i32 - 1)).abs(), col));
        let found: Vec<u32> = (0..width).map(|slot| centre_out(width, slot)).collect();
        assert_eq!(found, order, "width {width}");
    }
}

fn pons(shape: &Shape, text: &str) -> i32 {
    let position = play_columns(shape, &columns_of_text(text).unwrap(), false, 1).unwrap();
    let mut tables = Tables::new(shape, 1 << 20).unwrap();
    unlimited(|budget| {
        Solver::new(shape, &mut tables, budget, Books::default(), 1).pons_score(&position, false)
    })
    .unwrap()
}

#[test]
fn pons_examples() {
    let shape = Shape::<u64>::new(7, 6).unwrap();
    // From Pons' test protocol (end of game positions).
    assert_eq!(pons(&shape, "2252576253462244111563365343671351441"), -1);
    assert_eq!(pons(&shape, "7422341735647741166133573473242566"), 1);
    assert_eq!(pons(&shape, "23163416124767223154467471272416755633"), 0);
}

#[test]
fn mirrored_keys_are_the_mirror_images_keys() {
    let shape = Shape::<u64>::new(7, 6).unwrap();
    let mirror = |text: &str| -> String {
        text.bytes()
            .map(|c| char::from(b'8' - (c - b'0')))
            .collect()
    };
    for text in [
        "",
        "4",
        "1",
        "12",
        "4453",
        "7422341735647741166133573473242566",
    ] {
        let position = play_columns(&shape, &columns_of_text(text).unwrap(), false, 1).unwrap();
        let image =
            play_columns(&shape, &columns_of_text(&mirror(text)).unwrap(), false, 1).unwrap();
        let key = position.key(&shape);
        assert_eq!(shape.mirrored_key(key), image.key(&shape), "{text}");
        assert_eq!(seven_by_six_mirrored(key), image.key(&shape), "{text}");
    }
    // A position searched after its mirror image answers from the image's entries: the
    // same score, for a fraction of the nodes.
    for text in ["376542237277673334", "253453567416354"] {
        let mut tables = Tables::new(&shape, 1 << 20).unwrap();
        let mut searched = Vec::new();
        for text in [text.to_string(), mirror(text)] {
            let position = play_columns(&shape, &columns_of_text(&text).unwrap(), false, 1);
            let position = position.unwrap();
            searched.push(unlimited(|budget| {
                let mut solver = Solver::new(&shape, &mut tables, budget, Books::default(), 1);
                let score = solver.pons_score(&position, false);
                (score, budget.nodes())
            }));
        }
        let [(first, first_nodes), (image, image_nodes)] = searched[..] else {
            unreachable!()
        };
        assert_eq!((first, image), (Ok(pons(&shape, text)), first), "{text}");
        assert!(
            image_nodes * 10 < first_nodes,
            "{text}: {image_nodes} {first_nodes}"
        );
    }
}

/// A random game of `fewest` to `fewest + span - 1` stones (fewer when a four would end
/// it), drawn from `seed`, which it moves on.
fn random_game<B: Bits>(shape: &Shape<B>, seed: &mut u64, fewest: u64, span: u64) -> Position<B> {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    let mut position = Position::EMPTY;
    for step in 0..fewest + *seed % span {
        let columns: Vec<u32> = (0..shape.width)
            .filter(|&c| position.can_play(shape, c))
            .collect();
        let col = columns[((*seed >> (step % 50)) as usize) % columns.len()];
        let next = position.play_cell(position.landing(shape) & shape.column(col));
        if next.is_won(shape) {
            break;
        }
        position = next;
    }
    position
}

#[test]
fn claimeven_bounds_hold_against_the_plain_search() {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let (mut bounded, mut with_odd_columns) = (0, 0);
    for (width, height, fewest) in [
        (4, 4, 4),
        (5, 4, 6),
        (4, 5, 6),
        (3, 5, 3),
        (6, 4, 10),
        (7, 6, 30),
    ] {
        let shape = Shape::<u64>::new(width, height).unwrap();
        for _ in 0..400 {
            let span = u64::from(shape.cells) - fewest;
            let position = random_game(&shape, &mut seed, fewest, span);
            if position.moves == shape.cells {
                continue;
            }
            let mut tables = Tables::new(&shape, 1 << 16).unwrap();
            let most = unlimited(|budget| {
                Solver::new(&shape, &mut tables, budget, Books::default(), 1)
                    .claimeven_most(&position)
            });
            if most == i32::MAX {
                continue;
            }
            bounded += 1;
            if (position.mask + shape.bottom) & !shape.top_parity != 0 {
                with_odd_columns += 1;
            }
            let score = pons_of(plain_score(&shape, &position));
            assert!(
                score <= most,
                "{width}x{height} {position:?}: {score} > {most}"
            );
        }
    }
    // The bound must have been put to the test, odd columns paired included.
    assert!(
        bounded > 300 && with_odd_columns > 100,
        "{bounded} {with_odd_columns}"
    );
}

/// A game of up to `stones` random moves that complete no four (it stops where every move
/// would): positions deep into large boards, which random play seldom reaches.
fn quiet_game<B: Bits>(shape: &Shape<B>, seed: &mut u64, stones: u64) -> Position<B> {
    let mut position = Position::EMPTY;
    while u64::from(position.moves) < stones {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        let quiet: Vec<Position<B>> = (0..shape.width)
            .filter(|&c| position.can_play(shape, c))
            .map(|c| position.play_cell(position.landing(shape) & shape.column(c)))
            .filter(|next| !next.is_won(shape))
            .collect();
        if quiet.is_empty() {
            break;
        }
        position = quiet[(*seed % quiet.len() as u64) as usize];
    }
    position
}

/// The solver's exact score of `position` on `threads` threads, from fresh tables.
fn solved<B: Bits>(shape: &Shape<B>, position: &Position<B>, threads: usize) -> Score {
    let mut tables = Tables::new(shape, 1 << 22).unwrap();
    unlimited(|budget| {
        exact_of(
            &mut Solver::new(shape, &mut tables, budget, Books::default(), threads),
            position,
        )
    })
    .unwrap()
}

/// Random positions of `width` x `height` with at least `fewest` stones and at most
/// `most_left` cells left, each scored by the solver and by the plain search.
fn agrees_on<B: Bits>(width: i128, height: i128, fewest: u64, most_left: u64, count: usize) {
    let shape = Shape::<B>::new(width, height).unwrap();
    let mut seed = 0x2545_f491_4f6c_dd1du64 ^ (width * 16 + height) as u64;
    // The debug build is there for overflow checks, and its plain search is ten times
    // slower: a quarter of the positions, the same depths.
    let count = if cfg!(debug_assertions) {
        count.div_ceil(4)
    } else {
        count
    };
    let mut checked = 0;
    while checked < count {
        let span = u64::from(shape.cells) - fewest;
        let stones = fewest + seed % span;
        let position = quiet_game(&shape, &mut seed, stones);
        if u64::from(shape.cells - position.moves) > most_left {
            continue;
        }
        checked += 1;
        let plain = plain_score(&shape, &position);
        assert_eq!(
            solved(&shape, &position, 1),
            plain,
            "{width}x{height} {position:?}"
        );
    }
}

#[test]
fn agrees_with_the_plain_search_on_boards_past_64_bits() {
    // 13x4 and 8x8 just past 64 bits, 16x7 at the edge (128 bits), with 14 cells or
    // fewer left (the plain search's reach); and 128-bit boards of small sizes.
    agrees_on::<u128>(13, 4, 38, 12, 40);
    agrees_on::<u128>(8, 8, 52, 12, 40);
    agrees_on::<u128>(16, 7, 102, 10, 20);
    for (width, height) in [(4, 4), (5, 4), (4, 5)] {
        agrees_on::<u128>(width, height, 6, 99, 60);
    }
}

#[test]
fn both_integers_score_alike_on_several_threads() {
    // The parallel search (from 28 cells left) over the 128-bit table's seqlocked buckets
    // against the 64-bit one, on a board both integers hold.
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let narrow = Shape::<u64>::new(8, 4).unwrap();
    let wide = Shape::<u128>::new(8, 4).unwrap();
    // Two positions in the debug build (overflow checks), where each takes seconds.
    let count = if cfg!(debug_assertions) { 2 } else { 12 };
    for _ in 0..count {
        let position: Position<u64> = random_game(&narrow, &mut seed, 2, 3);
        let widened = Position {
            current: u128::from(position.current),
            mask: u128::from(position.mask),
            moves: position.moves,
        };
        assert_eq!(
            solved(&wide, &widened, 2),
            solved(&narrow, &position, 1),
            "{position:?}"
        );
    }
}

#[test]
fn agrees_with_the_plain_search_on_small_boards() {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    for (width, height) in [(4, 4), (5, 4), (4, 5), (3, 5), (6, 3)] {
        let shape = Shape::<u64>::new(width, height).unwrap();
        for _ in 0..150 {
            // At least 6 stones: the plain search of a nearly empty 5x4 takes seconds.
            let span = u64::from(shape.cells) - 5;
            let position = random_game(&shape, &mut seed, 6, span);
            let mut tables = Tables::new(&shape, 1 << 16).unwrap();
            let fast = unlimited(|budget| {
                exact_of(
                    &mut Solver::new(&shape, &mut tables, budget, Books::default(), 1),
                    &position,
                )
            })
            .unwrap();
            assert_eq!(
                fast,
                plain_score(&shape, &position),
                "{width}x{height} {position:?}"
            );
            assert_eq!(pons_of(fast), pons_of(plain_score(&shape, &position)));
        }
    }
}
