//! The text forms of Paimon's predicate JSON (feature `json`): `java.time`
//! strings, exact decimals, base64 and JSON string escaping as Jackson
//! writes them. Numbers as Java prints them and the calendar are shared
//! with CAST in [`java_text`](super::java_text). Pure functions over text;
//! the tree and the literal arrays live in [`json`](super::json).

use super::java_text::{civil_from_days, days_from_civil};
use std::format;
use std::string::{String, ToString};
use std::vec::Vec;
// ---------------------------------------------------------------------------
// Exact decimals
// ---------------------------------------------------------------------------

/// The unscaled `i128` of the decimal text `text` (`12.30`, `-1E+3`,
/// `0.5e-2`) at `scale`, checked against `precision`. Digits past the scale
/// must be zeros (no rounding), and the value must have at most
/// `precision` digits.
pub(crate) fn parse_decimal(text: &str, precision: u8, scale: u8) -> Result<i128, String> {
    let bad = || format!("\"{text}\" is not a decimal number");
    let (negative, body) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let (mantissa, exp) = match body.find(['e', 'E']) {
        Some(i) => {
            let e: i64 = body[i + 1..].parse().map_err(|_| bad())?;
            // Java's `BigDecimal` holds its scale as an `int`: an exponent
            // past it is a NumberFormatException, even on zero.
            if i32::try_from(e).is_err() {
                return Err(format!("{text}: the exponent is out of range"));
            }
            (&body[..i], e)
        }
        None => (body, 0),
    };
    let (int_part, frac_part) = match mantissa.find('.') {
        Some(i) => (&mantissa[..i], &mantissa[i + 1..]),
        None => (mantissa, ""),
    };
    if int_part.is_empty() && frac_part.is_empty()
        || !int_part
            .bytes()
            .chain(frac_part.bytes())
            .all(|b| b.is_ascii_digit())
    {
        return Err(bad());
    }
    // value = digits * 10^(exp - frac_len); we want digits * 10^shift at `scale`.
    let digits: String = format!("{int_part}{frac_part}");
    let digits = digits.trim_start_matches('0');
    let out_of_range = || format!("{text} is out of the range of DECIMAL({precision}, {scale})");
    let too_fine =
        || format!("{text} has more fractional digits than DECIMAL({precision}, {scale}) keeps");
    // An exponent near the ends of `i64` (`1e9223372036854775807`): zero
    // is zero, anything else out of range one way or the other.
    let shift = i64::from(scale)
        .checked_add(exp)
        .and_then(|s| s.checked_sub(frac_part.len() as i64));
    let shift = match shift {
        Some(shift) => shift,
        None if digits.is_empty() => 0,
        None if exp > 0 => return Err(out_of_range()),
        None => return Err(too_fine()),
    };
    let kept: String = if shift >= 0 {
        if digits.is_empty() {
            String::new()
        } else if (digits.len() as i64)
            .checked_add(shift)
            .is_none_or(|n| n > i64::from(precision))
        {
            return Err(out_of_range());
        } else {
            let mut s = digits.to_string();
            s.extend(core::iter::repeat_n('0', shift as usize));
            s
        }
    } else {
        let drop = usize::try_from(shift.unsigned_abs()).unwrap_or(usize::MAX);
        if drop >= digits.len() {
            if !digits.is_empty() {
                return Err(too_fine());
            }
            String::new()
        } else {
            let (keep, dropped) = digits.split_at(digits.len() - drop);
            if dropped.bytes().any(|b| b != b'0') {
                return Err(too_fine());
            }
            keep.to_string()
        }
    };
    if kept.len() > usize::from(precision) {
        return Err(out_of_range());
    }
    let unscaled: i128 = if kept.is_empty() {
        0
    } else {
        kept.parse().map_err(|_| out_of_range())?
    };
    Ok(if negative { -unscaled } else { unscaled })
}

/// The plain text of `unscaled * 10^-scale`, as Java's
/// `BigDecimal.toPlainString`: `12.30`, `-0.05`, `0.00`, `7`.
pub(crate) fn format_decimal(unscaled: i128, scale: i8) -> String {
    let mut out = String::new();
    if unscaled < 0 {
        out.push('-');
    }
    let digits = unscaled.unsigned_abs().to_string();
    if scale <= 0 {
        out.push_str(&digits);
        if unscaled != 0 {
            out.extend(core::iter::repeat_n('0', usize::from(scale.unsigned_abs())));
        }
        return out;
    }
    let scale = scale as usize;
    if digits.len() <= scale {
        out.push_str("0.");
        out.extend(core::iter::repeat_n('0', scale - digits.len()));
        out.push_str(&digits);
    } else {
        let (int_part, frac) = digits.split_at(digits.len() - scale);
        out.push_str(int_part);
        out.push('.');
        out.push_str(frac);
    }
    out
}

// ---------------------------------------------------------------------------
// java.time
// ---------------------------------------------------------------------------

/// `LocalDate.toString()`: `2024-01-15`, `0999-12-31`, `-0001-01-01`,
/// `+10000-01-01`.
pub(crate) fn format_date(days: i64) -> String {
    let (year, month, day) = civil_from_days(days);
    let year_text = if year.abs() < 1000 {
        if year < 0 {
            format!("-{:04}", -year)
        } else {
            format!("{year:04}")
        }
    } else if year > 9999 {
        format!("+{year}")
    } else {
        year.to_string()
    };
    format!("{year_text}-{month:02}-{day:02}")
}

/// `LocalTime.toString()` of a nanosecond of the day: `10:20`, `10:20:30`,
/// `10:20:30.123`, `10:20:30.123456`, `10:20:30.123456789`.
pub(crate) fn format_time(nanos_of_day: i64) -> String {
    let (hour, rest) = (
        nanos_of_day / 3_600_000_000_000,
        nanos_of_day % 3_600_000_000_000,
    );
    let (minute, rest) = (rest / 60_000_000_000, rest % 60_000_000_000);
    let (second, nano) = (rest / 1_000_000_000, rest % 1_000_000_000);
    let mut out = format!("{hour:02}:{minute:02}");
    if second > 0 || nano > 0 {
        out.push_str(&format!(":{second:02}"));
        out.push_str(&fraction(nano));
    }
    out
}

/// `.SSS`, `.SSSSSS` or `.SSSSSSSSS`, as few groups of three as the nanos
/// need; empty for zero.
fn fraction(nano: i64) -> String {
    if nano == 0 {
        String::new()
    } else if nano % 1_000_000 == 0 {
        format!(".{:03}", nano / 1_000_000)
    } else if nano % 1000 == 0 {
        format!(".{:06}", nano / 1000)
    } else {
        format!(".{nano:09}")
    }
}

/// `LocalDateTime.toString()`: `2024-01-15T10:20:30.123`.
pub(crate) fn format_timestamp(days: i64, nanos_of_day: i64) -> String {
    format!("{}T{}", format_date(days), format_time(nanos_of_day))
}

/// `Instant.toString()`: `2024-01-15T10:20:30Z`, `…30.123Z`; the seconds are
/// always written.
pub(crate) fn format_instant(days: i64, nanos_of_day: i64) -> String {
    let hms = nanos_of_day / 1_000_000_000;
    let nano = nanos_of_day % 1_000_000_000;
    format!(
        "{}T{:02}:{:02}:{:02}{}Z",
        format_date(days),
        hms / 3600,
        hms / 60 % 60,
        hms % 60,
        fraction(nano)
    )
}

/// Reads `YYYY-MM-DD` (an optional sign and more than four digits for far
/// years) into days since 1970-01-01.
pub(crate) fn parse_date(text: &str) -> Option<i64> {
    let (sign, body) = match text.as_bytes().first()? {
        b'-' => (-1, &text[1..]),
        b'+' => (1, &text[1..]),
        _ => (1, text),
    };
    let mut parts = body.splitn(3, '-');
    let (y, m, d) = (parts.next()?, parts.next()?, parts.next()?);
    if y.len() < 4 || m.len() != 2 || d.len() != 2 {
        return None;
    }
    days_from_civil(sign * digits(y)?, digits(m)?, digits(d)?)
}

fn digits(text: &str) -> Option<i64> {
    if text.is_empty() || text.len() > 10 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// Reads `HH:MM[:SS[.f{1,9}]]` into the nanosecond of the day.
pub(crate) fn parse_time(text: &str) -> Option<i64> {
    let (hms, frac) = match text.split_once('.') {
        Some((hms, frac)) if !frac.is_empty() && frac.len() <= 9 => (hms, Some(frac)),
        Some(_) => return None,
        None => (text, None),
    };
    let parts: Vec<&str> = hms.split(':').collect();
    if parts.len() < 2 || parts.len() > 3 || parts.iter().any(|p| p.len() != 2) {
        return None;
    }
    if frac.is_some() && parts.len() != 3 {
        return None;
    }
    let hour = digits(parts[0])?;
    let minute = digits(parts[1])?;
    let second = parts.get(2).map_or(Some(0), |s| digits(s))?;
    let nano = match frac {
        Some(f) => digits(f)? * 10i64.pow(9 - f.len() as u32),
        None => 0,
    };
    time_nanos(hour, minute, second, nano)
}

/// The nanosecond of the day of a valid time of day.
pub(crate) fn time_nanos(hour: i64, minute: i64, second: i64, nano: i64) -> Option<i64> {
    if !(0..24).contains(&hour)
        || !(0..60).contains(&minute)
        || !(0..60).contains(&second)
        || !(0..1_000_000_000).contains(&nano)
    {
        return None;
    }
    Some(((hour * 60 + minute) * 60 + second) * 1_000_000_000 + nano)
}

/// Reads `YYYY-MM-DDTHH:MM[:SS[.f]]` into (days, nanosecond of the day).
pub(crate) fn parse_timestamp(text: &str) -> Option<(i64, i64)> {
    let (date, time) = text.split_once('T')?;
    Some((parse_date(date)?, parse_time(time)?))
}

/// Reads an ISO instant (`…T10:20:30Z`, or with an offset `+01:00`) into
/// (days, nanosecond of the day) in UTC.
pub(crate) fn parse_instant(text: &str) -> Option<(i64, i64)> {
    let (local, offset_seconds) = if let Some(local) = text.strip_suffix(['Z', 'z']) {
        (local, 0)
    } else {
        let at = text.rfind(['+', '-']).filter(|&i| i > 10)?;
        let (local, offset) = text.split_at(at);
        let sign = if offset.starts_with('-') { -1 } else { 1 };
        let (h, m) = offset[1..].split_once(':')?;
        if h.len() != 2 || m.len() != 2 {
            return None;
        }
        let (h, m) = (digits(h)?, digits(m)?);
        if h > 18 || m > 59 {
            return None;
        }
        (local, sign * (h * 3600 + m * 60))
    };
    let (days, nanos) = parse_timestamp(local)?;
    let total = i128::from(days) * 86_400_000_000_000 + i128::from(nanos)
        - i128::from(offset_seconds) * 1_000_000_000;
    let days = total.div_euclid(86_400_000_000_000);
    let nanos = total.rem_euclid(86_400_000_000_000);
    Some((i64::try_from(days).ok()?, nanos as i64))
}

// ---------------------------------------------------------------------------
// Base64 (Jackson's `byte[]`: the MIME alphabet, padded, no line breaks)
// ---------------------------------------------------------------------------

const BASE64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// `bytes` in standard padded base64.
pub(crate) fn base64_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(BASE64[(n >> (18 - 6 * i)) as usize & 63]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Standard base64 (padding optional) to bytes; `None` when malformed.
pub(crate) fn base64_decode(text: &str) -> Option<Vec<u8>> {
    let body = text.trim_end_matches('=');
    if text.len() - body.len() > 2 || body.len() % 4 == 1 {
        return None;
    }
    let mut out = Vec::with_capacity(body.len() * 3 / 4);
    let mut acc = 0u32;
    let mut bits = 0;
    for c in body.bytes() {
        let v = BASE64.iter().position(|&b| b == c)? as u32;
        acc = (acc << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    // Unused low bits of the last symbol must be zero (canonical form).
    if acc & ((1 << bits) - 1) != 0 {
        return None;
    }
    Some(out)
}

// ---------------------------------------------------------------------------
// JSON strings as Jackson escapes them
// ---------------------------------------------------------------------------

/// Appends `text` as a JSON string the way Jackson writes it: `"` and `\`
/// escaped, `\b \t \n \f \r` in short form, other control characters as
/// `\u00XX` (upper-case hex); everything else, non-ASCII included, as is.
pub(crate) fn push_json_string(out: &mut String, text: &str) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\u{c}' => out.push_str("\\f"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn decimals_exact() {
        assert_eq!(parse_decimal("12.30", 10, 2), Ok(1230));
        assert_eq!(parse_decimal("-1E+3", 10, 2), Ok(-100_000));
        assert_eq!(parse_decimal("0.5e-1", 10, 2), Ok(5));
        assert_eq!(parse_decimal("1.000", 10, 2), Ok(100));
        assert!(parse_decimal("1.005", 10, 2).is_err());
        assert!(parse_decimal("123456789", 10, 2).is_err());
        assert!(parse_decimal("1.", 10, 2).is_ok());
        assert!(parse_decimal(".", 10, 2).is_err());
        assert!(parse_decimal("1e", 10, 2).is_err());
        let big = "12345678901234567890.0123456789";
        let v = parse_decimal(big, 38, 10).unwrap();
        assert_eq!(format_decimal(v, 10), big);
        assert_eq!(format_decimal(-5, 2), "-0.05");
        assert_eq!(format_decimal(0, 2), "0.00");
        assert_eq!(format_decimal(7, 0), "7");
    }

    #[test]
    fn dates_and_times() {
        for days in [
            -800_000i64,
            -719_528,
            -1,
            0,
            1,
            19_737,
            2_932_896,
            3_000_000,
        ] {
            let text = format_date(days);
            assert_eq!(parse_date(&text), Some(days), "{text}");
        }
        assert_eq!(format_date(19_737), "2024-01-15");
        assert_eq!(format_date(-719_893), "-0001-01-01");
        assert_eq!(format_date(2_932_897), "+10000-01-01");
        assert_eq!(parse_date("2023-02-29"), None);
        assert_eq!(format_time(0), "00:00");
        assert_eq!(format_time(37_230_000_000_000), "10:20:30");
        assert_eq!(format_time(37_230_123_000_000), "10:20:30.123");
        assert_eq!(format_time(37_230_000_001_000), "10:20:30.000001");
        assert_eq!(format_time(37_230_000_000_001), "10:20:30.000000001");
        assert_eq!(parse_time("10:20:30.1"), Some(37_230_100_000_000));
        assert_eq!(parse_time("24:00"), None);
        assert_eq!(format_instant(0, 0), "1970-01-01T00:00:00Z");
        assert_eq!(parse_instant("1970-01-01T01:00:00+01:00"), Some((0, 0)));
        assert_eq!(
            parse_instant("1970-01-01T00:00:00-00:30"),
            Some((0, 1_800_000_000_000))
        );
    }

    #[test]
    fn base64_round_trip() {
        for len in 0..10usize {
            let bytes: Vec<u8> = (0..len as u8).map(|b| b.wrapping_mul(37)).collect();
            let text = base64_encode(&bytes);
            assert_eq!(base64_decode(&text), Some(bytes));
        }
        assert_eq!(base64_encode(b"Man"), "TWFu");
        assert_eq!(base64_encode(b"M"), "TQ==");
        assert_eq!(base64_decode("TR=="), None);
        assert_eq!(base64_decode("T"), None);
        assert_eq!(base64_decode("T*=="), None);
    }

    #[test]
    fn json_strings_as_jackson() {
        let mut out = String::new();
        push_json_string(&mut out, "a\"b\\c\n\u{1}é/");
        assert_eq!(out, "\"a\\\"b\\\\c\\n\\u0001é/\"");
    }
}
