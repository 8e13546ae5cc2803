//! The rules' options as the games declare them, and the reading of the limit options
//! several games share (`off` or a number). Kept apart so that the option model can be
//! reworked without touching the rules trait.

use super::OptionError;

/// A rule that the rules (protocol-spec/rules/) make an option, with its default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleOption {
    /// The option's name (matched case-insensitively).
    pub name: &'static str,
    /// The default value, as text.
    pub default: &'static str,
    /// What the option does and which values it takes.
    pub help: &'static str,
}

/// Reads the value of a limit option: `off`, or a positive number.
pub fn parse_limit(name: &str, value: &str) -> Result<Option<u32>, OptionError> {
    let value = value.trim();
    if value.eq_ignore_ascii_case("off") {
        return Ok(None);
    }
    match value.parse::<u32>() {
        Ok(n) if n > 0 => Ok(Some(n)),
        _ => Err(OptionError::bad_value(
            name,
            value,
            "off or a positive number",
        )),
    }
}
