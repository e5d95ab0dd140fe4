//! The sharded primitives of the distributed checker (src/shard.rs), driven here as the Ray
//! driver drives them (modelcheck/_ray.py), without Ray: 1 and 3 shards give the figures of the
//! single-process search on `small` (R24, R25 and every counted event), and a shard saved and
//! loaded mid-search goes on to the same result.

mod common;

use hatsuden_check::configs::config;
use hatsuden_check::search::{check, Options};

#[test]
fn shards_give_the_figures_of_the_single_process_search() {
    for positions in [false, true] {
        let opts = Options { positions, ..Options::default() };
        let single = check(&config("small").unwrap(), &opts).unwrap();
        for (shards, save_at) in [(1, None), (3, None), (3, Some(7))] {
            let r = common::run(config("small").unwrap(), shards, positions, save_at, 10);
            assert!(r.violations.is_empty());
            assert_eq!(r.longest_game, single.longest_game, "R25: every state peeled");
            assert_eq!(r.result, single.result);
            assert_eq!((r.states, r.transitions), (single.states, single.transitions));
            assert_eq!(r.terminal_by_reason, single.terminal_by_reason);
            assert_eq!((r.chance_nodes, r.max_depth), (single.chance_nodes, single.max_depth));
            assert_eq!(r.longest_game, single.longest_game);
            assert_eq!(r.events, single.events);
            assert_eq!(r.unreached, single.unreached);
            assert_eq!(r.soundness_checked, single.soundness_checked);
            assert_eq!(r.layer_sizes, single.layer_sizes);
        }
    }
}
