//! Games as types, so that the hot code (move generation, sowing, the search) can be compiled
//! once per built-in game with that game's [`Rules`] as constants: row lengths, directions and
//! capture sets then fold away instead of being looked up at every step. A game registered at
//! run time goes through [`Registered`], which looks its rules up in the position: the same code,
//! with the rules read instead of folded.

use super::landing::LandingTable;
use super::position::Position;
use super::variant::{AL_MANQALA, ANYWOLI, KALAH, MANGALA_II, MANGALA_IV, OWARE, Rules, Variant};

/// A game, known when the code is compiled or looked up in the position.
pub trait Spec: Send + Sync + 'static {
    /// The game of `pos` (a position of this game).
    fn variant(pos: &Position) -> Variant;
    /// The rules of `pos` (a position of this game).
    fn rules(pos: &Position) -> &'static Rules;
    /// Where every sowing of `pos`'s game ends.
    fn landings(pos: &Position) -> &'static LandingTable;
}

macro_rules! built_in_spec {
    ($(#[$doc:meta])* $spec:ident, $variant:expr, $rules:expr) => {
        $(#[$doc])*
        pub enum $spec {}

        impl Spec for $spec {
            #[inline(always)]
            fn variant(_: &Position) -> Variant {
                $variant
            }

            #[inline(always)]
            fn rules(_: &Position) -> &'static Rules {
                &$rules
            }

            #[inline(always)]
            fn landings(_: &Position) -> &'static LandingTable {
                // Worked out when the program is compiled.
                const LANDINGS: LandingTable = LandingTable::new(&$rules);
                &LANDINGS
            }
        }
    };
}

built_in_spec!(
    /// Mangala II as a type.
    MangalaII,
    Variant::MangalaII,
    MANGALA_II
);
built_in_spec!(
    /// Mangala IV as a type.
    MangalaIV,
    Variant::MangalaIV,
    MANGALA_IV
);
built_in_spec!(
    /// Al-manqala as a type.
    AlManqala,
    Variant::AlManqala,
    AL_MANQALA
);
built_in_spec!(
    /// Anywoli as a type.
    Anywoli,
    Variant::Anywoli,
    ANYWOLI
);
built_in_spec!(
    /// Kalah as a type.
    Kalah,
    Variant::Kalah,
    KALAH
);
built_in_spec!(
    /// Oware as a type.
    Oware,
    Variant::Oware,
    OWARE
);

/// Any game registered at run time: its rules are read from the registry, through the position.
pub enum Registered {}

impl Spec for Registered {
    #[inline(always)]
    fn variant(pos: &Position) -> Variant {
        pos.variant()
    }

    #[inline(always)]
    fn rules(pos: &Position) -> &'static Rules {
        pos.variant().rules()
    }

    #[inline(always)]
    fn landings(pos: &Position) -> &'static LandingTable {
        pos.variant().registered_landings()
    }
}

/// Evaluates `$body` with the type `$spec` standing for the game `$variant`'s [`Spec`].
#[macro_export]
macro_rules! with_spec {
    ($variant:expr, $spec:ident => $body:expr) => {
        match $variant {
            $crate::Variant::MangalaII => {
                type $spec = $crate::spec::MangalaII;
                $body
            }
            $crate::Variant::MangalaIV => {
                type $spec = $crate::spec::MangalaIV;
                $body
            }
            $crate::Variant::AlManqala => {
                type $spec = $crate::spec::AlManqala;
                $body
            }
            $crate::Variant::Anywoli => {
                type $spec = $crate::spec::Anywoli;
                $body
            }
            $crate::Variant::Kalah => {
                type $spec = $crate::spec::Kalah;
                $body
            }
            $crate::Variant::Oware => {
                type $spec = $crate::spec::Oware;
                $body
            }
            _ => {
                type $spec = $crate::spec::Registered;
                $body
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_type_names_its_own_game() {
        for variant in Variant::ALL {
            let pos = Position::start(variant);
            let (named, rules) =
                crate::with_spec!(variant, S => (S::variant(&pos), S::rules(&pos)));
            assert_eq!(named, variant);
            assert_eq!(rules, variant.rules());
        }
    }
}
