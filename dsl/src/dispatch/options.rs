//! [`CallOptions`]: how [`Toolbox::call_with`](crate::Toolbox::call_with) and
//! [`Toolbox::call_all`](crate::Toolbox::call_all) run calls (timeout, cancellation,
//! concurrency), and the bounded, order-keeping join behind `call_all`.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use crate::dispatch::cancel::CancelToken;
use crate::dispatch::timer::{ThreadTimer, Timer};
use crate::tool::{BoxFuture, ToolResult};

/// How calls run: an optional per-call timeout, an optional cancellation token, and how many
/// calls of one turn run at once.
///
/// ```
/// use std::time::Duration;
/// use tooldef::dispatch::{CallOptions, CancelToken};
///
/// let stop = CancelToken::new();
/// let options = CallOptions::new()
///     .timeout(Duration::from_secs(30))
///     .concurrency(8)
///     .cancel(stop.clone());
/// assert_eq!(options.timeout_value(), Some(Duration::from_secs(30)));
/// ```
#[derive(Clone)]
pub struct CallOptions {
    pub(crate) timeout: Option<Duration>,
    pub(crate) cancel: Option<CancelToken>,
    pub(crate) concurrency: usize,
    /// `None`: [`ThreadTimer`].
    pub(crate) timer: Option<Arc<dyn Timer>>,
    /// Whether strings holding the object or array the schema expects are read as it.
    pub(crate) repair: bool,
}

impl CallOptions {
    /// How many calls run at once unless told otherwise.
    pub const DEFAULT_CONCURRENCY: usize = 4;

    /// No timeout, no cancellation, [`DEFAULT_CONCURRENCY`](Self::DEFAULT_CONCURRENCY) calls at
    /// once, timeouts measured by [`ThreadTimer`].
    pub const fn new() -> Self {
        CallOptions {
            timeout: None,
            cancel: None,
            concurrency: Self::DEFAULT_CONCURRENCY,
            timer: None,
            repair: true,
        }
    }

    /// Each call that runs longer than `timeout` is stopped (its future dropped) and answered
    /// with an error result saying so.
    #[must_use]
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    /// Calls stop, with an error result, once `token` is cancelled.
    #[must_use]
    pub fn cancel(mut self, token: CancelToken) -> Self {
        self.cancel = Some(token);
        self
    }

    /// At most `n` calls of one [`call_all`](crate::Toolbox::call_all) run at once (at least one).
    #[must_use]
    pub fn concurrency(mut self, n: usize) -> Self {
        self.concurrency = n.max(1);
        self
    }

    /// Timeouts measured by `timer` (your runtime's sleep) instead of [`ThreadTimer`].
    #[must_use]
    pub fn timer(mut self, timer: impl Timer + 'static) -> Self {
        self.timer = Some(Arc::new(timer));
        self
    }

    /// Whether an object or array the model sent as a JSON string, where the schema expects
    /// one, is read as the value it holds (on by default; see
    /// [`Repair`](crate::dispatch::Repair)). Off, such a string is refused as the schema says.
    #[must_use]
    pub fn repair(mut self, on: bool) -> Self {
        self.repair = on;
        self
    }

    /// Whether repairs are on ([`repair`](Self::repair)).
    pub fn repair_value(&self) -> bool {
        self.repair
    }

    /// A sleep of `duration` from the configured timer.
    pub(crate) fn sleep(&self, duration: Duration) -> BoxFuture<'static, ()> {
        match &self.timer {
            Some(timer) => timer.sleep(duration),
            None => ThreadTimer.sleep(duration),
        }
    }

    /// The per-call timeout, if any.
    pub fn timeout_value(&self) -> Option<Duration> {
        self.timeout
    }

    /// How many calls run at once.
    pub fn concurrency_value(&self) -> usize {
        self.concurrency
    }
}

impl Default for CallOptions {
    fn default() -> Self {
        CallOptions::new()
    }
}

impl fmt::Debug for CallOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CallOptions")
            .field("timeout", &self.timeout)
            .field("cancel", &self.cancel)
            .field("concurrency", &self.concurrency)
            .field("repair", &self.repair)
            .finish_non_exhaustive()
    }
}

/// Runs the futures `make` gives for `0..count`, at most `bound` at a time on the polling task,
/// and resolves to their outputs in index order.
///
/// Every running future is polled when the task wakes: with a bound of a few, that costs less
/// than tracking which one woke.
pub(crate) struct BoundedJoin<'a, F> {
    make: F,
    next: usize,
    count: usize,
    bound: usize,
    running: Vec<(usize, BoxFuture<'a, ToolResult>)>,
    done: Vec<Option<ToolResult>>,
}

impl<'a, F: FnMut(usize) -> BoxFuture<'a, ToolResult>> BoundedJoin<'a, F> {
    pub(crate) fn new(count: usize, bound: usize, make: F) -> Self {
        BoundedJoin {
            make,
            next: 0,
            count,
            bound: bound.max(1),
            running: Vec::new(),
            done: (0..count).map(|_| None).collect(),
        }
    }
}

impl<'a, F: FnMut(usize) -> BoxFuture<'a, ToolResult> + Unpin> Future for BoundedJoin<'a, F> {
    type Output = Vec<ToolResult>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Vec<ToolResult>> {
        let this = &mut *self;
        loop {
            while this.running.len() < this.bound && this.next < this.count {
                let i = this.next;
                this.next += 1;
                this.running.push((i, (this.make)(i)));
            }
            let before = this.running.len();
            let mut k = 0;
            while k < this.running.len() {
                match this.running[k].1.as_mut().poll(cx) {
                    Poll::Ready(result) => {
                        let (i, _) = this.running.swap_remove(k);
                        this.done[i] = Some(result);
                    }
                    Poll::Pending => k += 1,
                }
            }
            if this.running.is_empty() && this.next >= this.count {
                let done = std::mem::take(&mut this.done);
                return Poll::Ready(done.into_iter().flatten().collect());
            }
            // Start the next calls at once when some finished; otherwise wait to be woken.
            if this.running.len() == before || this.next >= this.count {
                return Poll::Pending;
            }
        }
    }
}
