//! Reading input lines: bounded in length, CRLF-tolerant, and safe with bytes that are not UTF-8.

use std::io::{self, BufRead};

/// Longest line accepted, in bytes (a whole game's move list is a few kilobytes).
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// One line of input as the engine sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputLine {
    /// A line, without its `\n` or `\r\n`.
    Text(String),
    /// A line longer than [`MAX_LINE_BYTES`]; it was read to its end and dropped.
    TooLong,
    /// A line that is not valid UTF-8.
    NotUtf8,
}

/// Reads the next line, or `None` at end of input. A last line without a line end still counts.
pub fn read_line(reader: &mut impl BufRead) -> io::Result<Option<InputLine>> {
    let mut bytes = Vec::new();
    let mut too_long = false;
    let mut saw_anything = false;
    loop {
        let available = match reader.fill_buf() {
            Ok(available) => available,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            break;
        }
        saw_anything = true;
        let (chunk, done) = match available.iter().position(|&b| b == b'\n') {
            Some(end) => (&available[..end], Some(end + 1)),
            None => (available, None),
        };
        if !too_long {
            if bytes.len() + chunk.len() > MAX_LINE_BYTES {
                too_long = true;
                bytes = Vec::new();
            } else {
                bytes.extend_from_slice(chunk);
            }
        }
        let consumed = done.unwrap_or(available.len());
        reader.consume(consumed);
        if done.is_some() {
            break;
        }
    }
    if !saw_anything {
        return Ok(None);
    }
    if too_long {
        return Ok(Some(InputLine::TooLong));
    }
    if bytes.last() == Some(&b'\r') {
        bytes.pop();
    }
    Ok(Some(match String::from_utf8(bytes) {
        Ok(text) => InputLine::Text(text),
        Err(_) => InputLine::NotUtf8,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8]) -> Vec<InputLine> {
        let mut reader = io::BufReader::with_capacity(7, input);
        std::iter::from_fn(|| read_line(&mut reader).unwrap()).collect()
    }

    #[test]
    fn crlf_and_lf_both_end_lines() {
        assert_eq!(
            lines(b"uci\r\nisready\nquit"),
            vec![
                InputLine::Text("uci".into()),
                InputLine::Text("isready".into()),
                InputLine::Text("quit".into())
            ]
        );
    }

    #[test]
    fn invalid_utf8_is_reported_and_reading_goes_on() {
        assert_eq!(
            lines(b"\xff\xfe\nd\n"),
            vec![InputLine::NotUtf8, InputLine::Text("d".into())]
        );
    }

    #[test]
    fn overlong_line_is_dropped_whole() {
        let mut input = vec![b'x'; MAX_LINE_BYTES + 10];
        input.extend_from_slice(b"\nisready\n");
        assert_eq!(
            lines(&input),
            vec![InputLine::TooLong, InputLine::Text("isready".into())]
        );
    }
}
