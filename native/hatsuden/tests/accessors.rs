//! The state's public accessors of the tech cards in play, along random games: what they
//! report is what the moves placed (R19, R20); the observations of those states read back
//! from their notation (R37).

use hatsuden::{format_observation, new_game, observe, parse_observation, Move, Phase, Rules, SplitMix64};

/// R19: the Accumulator lies on the row its player chose, R20: the Smart on the chosen energy;
/// neither moves once placed, and neither is there before it is placed.
#[test]
fn r19_r20_the_accumulator_and_the_smart_are_where_they_were_placed() {
    let mut moves = Vec::new();
    let (mut accumulators, mut smarts) = (0, 0);
    for seed in 0..200 {
        let mut s = new_game(&Rules::STANDARD, Some(seed)).unwrap();
        let mut g = SplitMix64::new(seed + 7);
        let (mut accumulator, mut smart, mut placed) = (None, None, false);
        while s.phase() != Phase::GameOver {
            assert_eq!((s.accumulator(), s.smart()), (accumulator, smart), "seed {seed}");
            // NOTATION.md: each player's observation just after a tech card was placed reads
            // back from its notation (whoever placed it).
            if placed {
                for p in 0..2 {
                    let o = observe(&s, p);
                    assert_eq!(parse_observation(&format_observation(&o)).as_ref(), Ok(&o), "seed {seed}");
                }
            }
            s.legal_moves(&mut moves);
            // Prefer placing a tech card when it is offered, so that both are met often.
            let placings: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|m| matches!(m, Move::PlaceAccumulator { .. } | Move::PlaceSmart { .. }))
                .collect();
            let pick = g.next();
            let m = if placings.is_empty() {
                moves[(pick % moves.len() as u64) as usize]
            } else {
                placings[(pick % placings.len() as u64) as usize] // either row, any energy
            };
            let player = s.current_player();
            placed = matches!(m, Move::PlaceAccumulator { .. } | Move::PlaceSmart { .. });
            match m {
                Move::PlaceAccumulator { row } => {
                    accumulator = Some((player, row as usize));
                    accumulators += 1;
                }
                Move::PlaceSmart { energy } => {
                    smart = Some(energy as usize);
                    smarts += 1;
                }
                _ => {}
            }
            s = s.apply(m).unwrap();
        }
    }
    assert!(accumulators > 5 && smarts > 5, "{accumulators} {smarts}");
}

/// The card accessors list what the state notation writes (NOTATION.md, "State notation"): the
/// hands, the deck, the discards and the known cards, in canonical order, and who triggered the
/// end (R24), along random games.
#[test]
fn r2_r36_the_card_accessors_list_the_cards_of_the_notation() {
    // A card's code (NOTATION.md): the energy's letter in column order, then the value.
    let code = |c: &hatsuden::Card| format!("{}{}", ['S', 'G', 'W', 'H', 'B'][c.energy as usize], c.value);
    let names = |cards: Vec<hatsuden::Card>| cards.iter().map(code).collect::<Vec<_>>().join(",");
    let field = |text: &str, key: &str| {
        let at = text.find(&format!(" {key}=")).expect("the field") + key.len() + 2;
        text[at..].split(' ').next().unwrap_or_default().to_string()
    };
    let mut moves = Vec::new();
    let (mut discards_seen, mut triggered) = (0, 0);
    for seed in 0..40 {
        let mut s = new_game(&Rules::STANDARD, Some(seed)).unwrap();
        let mut g = SplitMix64::new(seed + 11);
        while s.phase() != Phase::GameOver {
            let text = hatsuden::format_state(&s);
            let or_dash = |list: String| if list.is_empty() { "-".to_string() } else { list };
            assert_eq!(
                field(&text, "hands"),
                format!("{}/{}", or_dash(names(s.hand(0))), or_dash(names(s.hand(1)))),
                "{text}"
            );
            assert_eq!(field(&text, "deck"), or_dash(names(s.deck())), "{text}");
            assert_eq!(field(&text, "discards"), or_dash(names(s.discards())), "{text}");
            assert_eq!(
                field(&text, "known_cards"),
                format!("{}/{}", or_dash(names(s.known_cards(0))), or_dash(names(s.known_cards(1)))),
                "{text}"
            );
            let trigger = s.end_triggered_by().map_or("-".to_string(), |p| p.to_string());
            assert_eq!(field(&text, "end_triggered_by"), trigger, "{text}");
            triggered += usize::from(s.end_triggered_by().is_some());
            discards_seen += usize::from(!s.discards().is_empty());
            s.legal_moves(&mut moves);
            s = s.apply(moves[(g.next() % moves.len() as u64) as usize]).unwrap();
        }
    }
    assert!(discards_seen > 100 && triggered > 10, "{discards_seen} {triggered}");
}

/// R39: `MAX_OBSERVATION_TENSOR` is the tensor's length with every card-kind slot of the
/// compact state (`MAX_KINDS`) and the largest grid (`MAX_CELLS` cells, half as many
/// energies): 28 entries fixed, 6 per card kind, 17 per cell and one per energy, as the
/// layout counts them under any rule set; the largest valid rule set's tensor fits in it.
#[test]
fn r39_the_largest_observation_tensor_is_the_layouts_at_the_largest_sizes() {
    use hatsuden::{
        observation_tensor, observation_tensor_layout, parse_rules, MAX_CELLS, MAX_KINDS, MAX_OBSERVATION_TENSOR,
    };
    let length = |text: &str| -> (usize, usize, usize) {
        let t = parse_rules(text).unwrap().tables().unwrap();
        let n = observation_tensor_layout(t).iter().map(|&(_, size)| size).sum();
        (n, t.kinds, t.e)
    };
    // One energy, one value: the fixed part and one of each unit; then more values (kinds
    // alone), then more energies (kinds, cells and energies).
    let (one, k1, e1) = length("1/1/2/1/10/-/city_points/retake/2");
    let (values, k2, _) = length("1/3/2/1/10/-/city_points/retake/2");
    let (energies, k3, e3) = length("3/1/2/1/10/-/city_points/retake/2");
    assert_eq!((k1, e1, k2, k3, e3), (1, 1, 3, 3, 3));
    let per_kind = (values - one) / 2;
    let per_energy_and_cells = (energies - one - 2 * per_kind) / 2; // an energy brings 2 cells
    assert_eq!(per_kind, 6);
    assert_eq!(per_energy_and_cells, 2 * 17 + 1);
    let fixed = one - per_kind - per_energy_and_cells;
    assert_eq!(fixed, 28);
    assert_eq!(MAX_OBSERVATION_TENSOR, fixed + per_kind * MAX_KINDS + per_energy_and_cells * (MAX_CELLS / 2));
    let largest = parse_rules("5/11/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/20").unwrap();
    let s = new_game(&largest, Some(1)).unwrap();
    let n = observation_tensor(&observe(&s, 0)).len();
    assert!(n <= MAX_OBSERVATION_TENSOR && MAX_OBSERVATION_TENSOR - n == 6 * (MAX_KINDS - 55), "{n}");
}
