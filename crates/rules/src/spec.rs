//! Games as types, so that the hot code (move generation, sowing, the search) can be compiled
//! once per built-in game with that game's [`Rules`] as constants: row lengths, directions and
//! capture sets then fold away instead of being looked up at every step. A game registered at
//! run time goes through [`Registered`], which looks its rules up in the position: the same code,
//! with the rules read instead of folded.

use super::landing::LandingTable;
use super::position::Position;
use super::variant::*;

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

// A `Spec` type per built-in game (`spec::MangalaII`, …) and the `Pick` of every slot, written
// by `build.rs`.
include!(concat!(env!("OUT_DIR"), "/built_in_specs.rs"));

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

/// The most built-in games [`with_spec!`] has a branch for (`build.rs` refuses more).
pub const SLOTS: usize = 8;

/// The built-in game numbered `I`, as a type for [`with_spec!`].
pub enum Slot<const I: usize> {}

/// The [`Spec`] of a [`Slot`]: the built-in game's type (`build.rs` writes these), or
/// [`Registered`] for a slot no built-in game fills (its numbers are registered games').
pub trait Pick {
    type Spec: Spec;
}

/// Evaluates `$body` with the type `$spec` standing for the game `$variant`'s [`Spec`]: a
/// built-in game's own type (its rules as constants), else [`Registered`].
#[macro_export]
macro_rules! with_spec {
    ($variant:expr, $spec:ident => $body:expr) => {
        match $variant.index() {
            0 => {
                type $spec = <$crate::spec::Slot<0> as $crate::spec::Pick>::Spec;
                $body
            }
            1 => {
                type $spec = <$crate::spec::Slot<1> as $crate::spec::Pick>::Spec;
                $body
            }
            2 => {
                type $spec = <$crate::spec::Slot<2> as $crate::spec::Pick>::Spec;
                $body
            }
            3 => {
                type $spec = <$crate::spec::Slot<3> as $crate::spec::Pick>::Spec;
                $body
            }
            4 => {
                type $spec = <$crate::spec::Slot<4> as $crate::spec::Pick>::Spec;
                $body
            }
            5 => {
                type $spec = <$crate::spec::Slot<5> as $crate::spec::Pick>::Spec;
                $body
            }
            6 => {
                type $spec = <$crate::spec::Slot<6> as $crate::spec::Pick>::Spec;
                $body
            }
            7 => {
                type $spec = <$crate::spec::Slot<7> as $crate::spec::Pick>::Spec;
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

    /// The first registered game's number is a slot no built-in game fills: it plays through
    /// the rules in its position.
    #[test]
    fn a_registered_game_goes_through_the_registry() {
        assert!(Variant::ALL.len() < SLOTS);
        let text = crate::definition::write(Variant::Oware.rules())
            .replace("name = \"oware\"", "name = \"oware-spec-test\"");
        let variant = crate::definition::register(&text).unwrap();
        let pos = Position::start(variant);
        let (named, rules) = crate::with_spec!(variant, S => (S::variant(&pos), S::rules(&pos)));
        assert_eq!(named, variant);
        assert_eq!(rules.name, "oware-spec-test");
        assert_eq!(pos.legal_moves().len(), 6);
    }
}
