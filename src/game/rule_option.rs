//! The reading of the limit options several games' rules share (`off` or a number).
//! The rules' options themselves are declared as [`crate::options::OptionSpec`]s.

use super::OptionError;

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
