//! Streamable-HTTP sessions with a cap: rmcp's in-memory session manager, holding at most
//! `max_sessions` at once, and closing a session that made no request within
//! `unused_session_timeout` of its `initialize`.
//!
//! A session holds a permit of a semaphore from its creation to its close (however it
//! closes: `DELETE`, its idle timeout, its transport ending, or the unused timer here). A
//! creation past the cap fails inside rmcp's handling of the `initialize`; the service's
//! request handler learns of it through a task-local flag ([`Sessions::watch`]) and answers
//! `503 Service Unavailable` instead of rmcp's `500`.

use std::cell::Cell;
use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use futures_core::Stream;
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::WorkerTransport;
use rmcp::transport::streamable_http_server::session::local::{
    LocalSessionManager, LocalSessionManagerError, LocalSessionWorker,
};
use rmcp::transport::streamable_http_server::session::{ServerSseMessage, SessionId};
use rmcp::transport::streamable_http_server::{RestoreOutcome, SessionManager};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

tokio::task_local! {
    /// Set when a session creation in this request was refused for the cap.
    static REFUSED: Cell<bool>;
}

/// One live session's hold on the cap.
struct Held {
    _permit: OwnedSemaphorePermit,
    /// Whether the session has made a request (or opened its event stream) since `initialize`.
    used: bool,
}

/// rmcp's [`LocalSessionManager`] under a cap on live sessions.
pub(super) struct Sessions {
    inner: Arc<LocalSessionManager>,
    slots: Arc<Semaphore>,
    max: usize,
    held: Arc<Mutex<HashMap<SessionId, Held>>>,
    unused_timeout: Duration,
}

/// Why a session operation failed.
#[derive(Debug, thiserror::Error)]
pub(super) enum SessionsError {
    #[error("the server holds its limit of {0} sessions")]
    Full(usize),
    #[error(transparent)]
    Local(#[from] LocalSessionManagerError),
}

impl Sessions {
    pub(super) fn new(max: usize, idle_timeout: Duration, unused_timeout: Duration) -> Self {
        let mut inner = LocalSessionManager::default();
        inner.session_config.keep_alive = Some(idle_timeout);
        Sessions {
            inner: Arc::new(inner),
            slots: Arc::new(Semaphore::new(max)),
            max,
            held: Arc::new(Mutex::new(HashMap::new())),
            unused_timeout,
        }
    }

    /// `request`'s output, and whether a session it would have created was refused for the
    /// cap.
    pub(super) async fn watch<F: Future>(request: F) -> (F::Output, bool) {
        REFUSED
            .scope(Cell::new(false), async {
                let out = request.await;
                (out, REFUSED.with(Cell::get))
            })
            .await
    }

    fn mark_used(&self, id: &SessionId) {
        let mut held = self.held.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(h) = held.get_mut(id) {
            h.used = true;
        }
    }
}

impl SessionManager for Sessions {
    type Error = SessionsError;
    type Transport = WorkerTransport<LocalSessionWorker>;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), SessionsError> {
        let Ok(permit) = Arc::clone(&self.slots).try_acquire_owned() else {
            let _ = REFUSED.try_with(|refused| refused.set(true));
            tracing::warn!(max = self.max, "initialize refused: the session limit is reached");
            return Err(SessionsError::Full(self.max));
        };
        let (id, transport) = self.inner.create_session().await?;
        self.held
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(id.clone(), Held { _permit: permit, used: false });
        let (inner, held, timeout) =
            (Arc::clone(&self.inner), Arc::clone(&self.held), self.unused_timeout);
        let unused = id.clone();
        tokio::spawn(async move {
            tokio::time::sleep(timeout).await;
            let dropped = {
                let mut held = held.lock().unwrap_or_else(PoisonError::into_inner);
                match held.get(&unused) {
                    Some(h) if !h.used => held.remove(&unused),
                    _ => None,
                }
            };
            if dropped.is_some() {
                tracing::debug!(session = %unused, "session closed: no request since initialize");
                if let Err(e) = inner.close_session(&unused).await {
                    tracing::debug!(session = %unused, error = %e, "closing an unused session");
                }
            }
        });
        Ok((id, transport))
    }

    async fn initialize_session(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<ServerJsonRpcMessage, SessionsError> {
        Ok(self.inner.initialize_session(id, message).await?)
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, SessionsError> {
        Ok(self.inner.has_session(id).await?)
    }

    async fn close_session(&self, id: &SessionId) -> Result<(), SessionsError> {
        let released = self.held.lock().unwrap_or_else(PoisonError::into_inner).remove(id);
        drop(released);
        Ok(self.inner.close_session(id).await?)
    }

    async fn create_stream(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, SessionsError> {
        self.mark_used(id);
        Ok(self.inner.create_stream(id, message).await?)
    }

    async fn accept_message(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<(), SessionsError> {
        Ok(self.inner.accept_message(id, message).await?)
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, SessionsError> {
        self.mark_used(id);
        Ok(self.inner.create_standalone_stream(id).await?)
    }

    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, SessionsError> {
        self.mark_used(id);
        Ok(self.inner.resume(id, last_event_id).await?)
    }

    async fn restore_session(
        &self,
        _id: SessionId,
    ) -> Result<RestoreOutcome<Self::Transport>, SessionsError> {
        Ok(RestoreOutcome::NotSupported)
    }
}
