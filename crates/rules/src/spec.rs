//! The four games as types, so that the hot code (move generation, sowing, the search) can be
//! compiled once per game with that game's [`Rules`] as constants: row lengths, directions and
//! capture sets then fold away instead of being looked up at every step.

use super::landing::LandingTable;
use super::variant::{AL_MANQALA, ANYWOLI, MANGALA_II, MANGALA_IV, Rules, Variant};

/// A game known when the code is compiled.
pub trait Spec: Send + Sync + 'static {
    const VARIANT: Variant;
    const RULES: &'static Rules;
    /// Where every sowing ends, worked out when the program is compiled.
    const LANDINGS: &'static LandingTable = &LandingTable::new(Self::RULES);
}

/// Mangala II as a type.
pub enum MangalaII {}
/// Mangala IV as a type.
pub enum MangalaIV {}
/// Al-manqala as a type.
pub enum AlManqala {}
/// Anywoli as a type.
pub enum Anywoli {}

impl Spec for MangalaII {
    const VARIANT: Variant = Variant::MangalaII;
    const RULES: &'static Rules = &MANGALA_II;
}

impl Spec for MangalaIV {
    const VARIANT: Variant = Variant::MangalaIV;
    const RULES: &'static Rules = &MANGALA_IV;
}

impl Spec for AlManqala {
    const VARIANT: Variant = Variant::AlManqala;
    const RULES: &'static Rules = &AL_MANQALA;
}

impl Spec for Anywoli {
    const VARIANT: Variant = Variant::Anywoli;
    const RULES: &'static Rules = &ANYWOLI;
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
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_type_names_its_own_game() {
        for variant in Variant::ALL {
            let (named, rules) = with_spec!(variant, S => (S::VARIANT, S::RULES));
            assert_eq!(named, variant);
            assert_eq!(rules, variant.rules());
        }
    }
}
