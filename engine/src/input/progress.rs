//! The progress line on stderr: files extracted and rule slices solved, for runs that take longer
//! than about a second, when stderr is a terminal.
//!
//! Workers only bump atomic counters ([`Progress`]); one ticker thread ([`Ticker`]) reads them and
//! rewrites a single line, so nothing a worker does waits on the terminal, and the verdict never
//! depends on it. The line is erased before the result is written.

use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Counters of one run (under `--diff`, of both the merge base and the head).
#[derive(Debug, Default)]
pub struct Progress {
    files_total: AtomicUsize,
    files_done: AtomicUsize,
    slices_total: AtomicUsize,
    slices_done: AtomicUsize,
}

impl Progress {
    /// `count` more files will be extracted.
    pub fn add_files(&self, count: usize) {
        self.files_total.fetch_add(count, Ordering::Relaxed);
    }

    /// One file is extracted.
    pub fn file_done(&self) {
        self.files_done.fetch_add(1, Ordering::Relaxed);
    }

    /// `count` more rule slices will be solved.
    pub fn add_slices(&self, count: usize) {
        self.slices_total.fetch_add(count, Ordering::Relaxed);
    }

    /// `count` rule slices are solved.
    pub fn slices_done(&self, count: usize) {
        self.slices_done.fetch_add(count, Ordering::Relaxed);
    }

    /// The line as it reads now, e.g. `lintel: 1200/5000 files extracted`, then with
    /// `, 3/40 slices solved` once slices are being solved.
    pub fn line(&self) -> String {
        let mut line = format!(
            "lintel: {}/{} files extracted",
            self.files_done.load(Ordering::Relaxed),
            self.files_total.load(Ordering::Relaxed),
        );
        let slices = self.slices_total.load(Ordering::Relaxed);
        if slices > 0 {
            line.push_str(&format!(
                ", {}/{slices} slices solved",
                self.slices_done.load(Ordering::Relaxed)
            ));
        }
        line
    }
}

/// How long a run goes before the line appears.
const DELAY: Duration = Duration::from_secs(1);

/// How often the line is rewritten.
const INTERVAL: Duration = Duration::from_millis(100);

/// The thread that draws the progress line on stderr; dropping it stops the thread and erases
/// the line.
pub(crate) struct Ticker {
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Ticker {
    /// Starts drawing `progress` on stderr when the binary's stderr is a terminal
    /// (`crate::terminal::set_terminals`); `None` otherwise (a pipe, a CI log or an in-process caller
    /// gets no progress line), or when no thread can be started.
    pub fn start(progress: &Arc<Progress>) -> Option<Self> {
        if !crate::terminal::stderr_is_terminal() {
            return None;
        }
        let stop = Arc::new(AtomicBool::new(false));
        let thread = {
            let stop = Arc::clone(&stop);
            let progress = Arc::clone(progress);
            std::thread::Builder::new()
                .name("lintel-progress".into())
                .spawn(move || draw(&progress, &stop))
                .ok()?
        };
        Some(Self {
            stop,
            thread: Some(thread),
        })
    }
}

fn draw(progress: &Progress, stop: &AtomicBool) {
    let started = Instant::now();
    let mut shown = false;
    while !stop.load(Ordering::Relaxed) {
        std::thread::park_timeout(INTERVAL);
        if stop.load(Ordering::Relaxed) || started.elapsed() < DELAY {
            continue;
        }
        let mut stderr = std::io::stderr();
        // `\r` and erase-line: the line is rewritten in place.
        let _ = write!(stderr, "\r\x1b[2K{}", progress.line());
        let _ = stderr.flush();
        shown = true;
    }
    if shown {
        let mut stderr = std::io::stderr();
        let _ = write!(stderr, "\r\x1b[2K");
        let _ = stderr.flush();
    }
}

impl Drop for Ticker {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            thread.thread().unpark();
            let _ = thread.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Progress;

    #[test]
    fn the_line_counts_what_the_workers_report() {
        let progress = Progress::default();
        progress.add_files(3);
        progress.file_done();
        progress.file_done();
        assert_eq!(progress.line(), "lintel: 2/3 files extracted");
        progress.add_slices(4);
        progress.slices_done(3);
        assert_eq!(
            progress.line(),
            "lintel: 2/3 files extracted, 3/4 slices solved"
        );
    }
}
