//! How a run ends: its exit status (0 pass, 1 violation or an undecided slice, 2 error), and the
//! watched stdout that turns output lost to a full device into exit 2.

use std::io::Write;

/// The process outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitStatus {
    /// 0
    Pass,
    /// 1
    Violation,
    /// 2
    Error,
}

/// Stdout as the binary writes it: remembers the first write error, so that output lost to a
/// full device (`> /dev/full`) ends the run with exit 2 and a message on stderr, while a closed
/// pipe (`lintel check | head`) still stops quietly with the verdict's code.
pub struct WatchedOutput<W: Write> {
    inner: W,
    failure: Option<std::io::Error>,
}

impl<W: Write> WatchedOutput<W> {
    /// Watches `inner`.
    pub fn new(inner: W) -> Self {
        Self {
            inner,
            failure: None,
        }
    }

    fn watch<T>(&mut self, result: std::io::Result<T>) -> std::io::Result<T> {
        if let Err(error) = &result {
            if self.failure.is_none() {
                self.failure = Some(std::io::Error::new(error.kind(), error.to_string()));
            }
        }
        result
    }

    /// Flushes, and turns `status` into exit 2 (with a message on `stderr`) when output was lost
    /// for another reason than a closed pipe.
    pub fn finish(mut self, status: ExitStatus, stderr: &mut dyn Write) -> ExitStatus {
        let flushed = self.inner.flush();
        let _ = self.watch(flushed);
        match self.failure {
            Some(error) if error.kind() != std::io::ErrorKind::BrokenPipe => {
                let _ = writeln!(
                    stderr,
                    "error[output-lost]: cannot write the output to stdout: {error}"
                );
                ExitStatus::Error
            }
            _ => status,
        }
    }
}

impl<W: Write> Write for WatchedOutput<W> {
    fn write(&mut self, buffer: &[u8]) -> std::io::Result<usize> {
        let written = self.inner.write(buffer);
        self.watch(written)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        let flushed = self.inner.flush();
        self.watch(flushed)
    }
}

impl ExitStatus {
    /// The process exit code.
    pub fn code(self) -> i32 {
        match self {
            Self::Pass => 0,
            Self::Violation => 1,
            Self::Error => 2,
        }
    }
}
