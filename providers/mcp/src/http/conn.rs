//! One HTTP connection's time limits: how long it may sit with nothing to do, how long a
//! request's head may take once it has begun, and which requests are still being answered.
//!
//! A [`Watch`] is told when bytes arrive ([`Watched`], the socket wrapper), when a request's
//! head is complete ([`Watch::begin`], from the service) and when its answer is done (the
//! [`InFlight`] guard, dropped with the response body). [`watched`] runs the connection and
//! drops it when a limit passes with no request in flight; a request being answered (a slow
//! tool, an event stream) is never cut, since the connection and session caps bound those.

use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;

use http_body_util::combinators::BoxBody;
use hyper::body::{Body, Bytes, Frame, SizeHint};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::Notify;
use tokio::time::Instant;

/// What a connection is doing, as far as its limits care.
struct State {
    /// Requests whose head has arrived and whose answer is not yet written out.
    in_flight: usize,
    /// When the connection last had nothing in flight (its accept, or its last answer's end).
    idle_since: Instant,
    /// When the first byte of the next request arrived, while nothing was in flight.
    head_started: Option<Instant>,
}

/// The shared state of one connection's limits.
pub(super) struct Watch {
    state: Mutex<State>,
    changed: Notify,
}

impl Watch {
    pub(super) fn new() -> Arc<Self> {
        Arc::new(Watch {
            state: Mutex::new(State {
                in_flight: 0,
                idle_since: Instant::now(),
                head_started: None,
            }),
            changed: Notify::new(),
        })
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Bytes arrived: with nothing in flight, they begin the next request's head.
    fn read(&self) {
        let mut state = self.state();
        if state.in_flight == 0 && state.head_started.is_none() {
            state.head_started = Some(Instant::now());
            drop(state);
            self.changed.notify_one();
        }
    }

    /// A request's head is complete; the request is in flight until the guard drops.
    pub(super) fn begin(self: &Arc<Self>) -> InFlight {
        let mut state = self.state();
        state.in_flight += 1;
        state.head_started = None;
        drop(state);
        self.changed.notify_one();
        InFlight(Arc::clone(self))
    }

    /// When the connection is to be closed if nothing changes first; `None` while a request
    /// is in flight.
    fn deadline(&self, idle: Duration, head: Duration) -> Option<Instant> {
        let state = self.state();
        if state.in_flight > 0 {
            return None;
        }
        Some(match state.head_started {
            Some(started) => started + head,
            None => state.idle_since + idle,
        })
    }
}

/// A request in flight on a [`Watch`]'s connection; its drop ends the request.
pub(super) struct InFlight(Arc<Watch>);

impl Drop for InFlight {
    fn drop(&mut self) {
        let mut state = self.0.state();
        state.in_flight = state.in_flight.saturating_sub(1);
        if state.in_flight == 0 {
            state.idle_since = Instant::now();
            state.head_started = None;
        }
        drop(state);
        self.0.changed.notify_one();
    }
}

/// Runs `connection` until it ends, or drops it (closing the socket) once `idle` passes with
/// nothing in flight and no byte of a next request, or `head` passes from a request's first
/// byte without its whole head. `None` when dropped.
pub(super) async fn watched<F: Future>(
    connection: F,
    watch: &Watch,
    idle: Duration,
    head: Duration,
) -> Option<F::Output> {
    let mut connection = std::pin::pin!(connection);
    loop {
        let deadline = watch.deadline(idle, head);
        let expired = async {
            match deadline {
                Some(at) => tokio::time::sleep_until(at).await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            out = &mut connection => return Some(out),
            () = watch.changed.notified() => {}
            () = expired => {
                if watch.deadline(idle, head).is_some_and(|at| at <= Instant::now()) {
                    return None;
                }
            }
        }
    }
}

/// A socket that tells its [`Watch`] when bytes arrive.
pub(super) struct Watched<S> {
    inner: S,
    watch: Arc<Watch>,
}

impl<S> Watched<S> {
    pub(super) fn new(inner: S, watch: Arc<Watch>) -> Self {
        Watched { inner, watch }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for Watched<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.inner).poll_read(cx, buf);
        if matches!(polled, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.watch.read();
        }
        polled
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Watched<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

/// A response body that keeps its request in flight until it is written out or dropped.
pub(super) struct TrackedBody {
    inner: BoxBody<Bytes, Infallible>,
    _in_flight: InFlight,
}

impl TrackedBody {
    pub(super) fn new(inner: BoxBody<Bytes, Infallible>, in_flight: InFlight) -> Self {
        TrackedBody { inner, _in_flight: in_flight }
    }
}

impl Body for TrackedBody {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        Pin::new(&mut self.inner).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}
