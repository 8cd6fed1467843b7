//! A tiny HTTP/1.1 client and server over `std::net`, loopback only, for the examples' fake
//! model servers. One request per connection (`Connection: close`), `Content-Length` bodies, every
//! read and write bounded by a timeout; nothing else of HTTP.

use std::io::{self, BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use serde_json::Value;

/// How long one read or write may block.
const IO_TIMEOUT: Duration = Duration::from_secs(10);
/// The largest body either side reads.
const MAX_BODY: usize = 16 * 1024 * 1024;
/// How long a server runs at most, so that a stuck example cannot hang CI.
const SERVER_LIFETIME: Duration = Duration::from_secs(60);

/// What went wrong on the wire.
#[derive(Debug, thiserror::Error)]
pub enum HttpError {
    /// A socket error.
    #[error("i/o: {0}")]
    Io(#[from] io::Error),
    /// The peer sent something this module does not read.
    #[error("malformed HTTP: {0}")]
    Malformed(String),
    /// The address is not a loopback address.
    #[error("{0} is not a loopback address; the examples only talk to 127.0.0.1")]
    NotLoopback(SocketAddr),
    /// The server answered with an error status.
    #[error("HTTP {status}: {body}")]
    Status {
        /// The status code.
        status: u16,
        /// The body, as text.
        body: String,
    },
    /// A body is not JSON.
    #[error("the body is not JSON: {0}")]
    Json(#[from] serde_json::Error),
}

/// A request the server received.
#[derive(Clone, Debug)]
pub struct Request {
    /// `GET`, `POST`...
    pub method: String,
    /// The request target (`/v1/chat/completions`).
    pub path: String,
    /// Header names (lower-cased) and values.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Vec<u8>,
}

impl Request {
    /// The body parsed as JSON.
    ///
    /// # Errors
    ///
    /// The body is not JSON.
    pub fn json(&self) -> Result<Value, HttpError> {
        Ok(serde_json::from_slice(&self.body)?)
    }

    /// The first header named `name` (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

/// A response the handler returns.
#[derive(Clone, Debug)]
pub struct Response {
    /// The status code.
    pub status: u16,
    /// The body (sent as `application/json`).
    pub body: Vec<u8>,
}

impl Response {
    /// `200 OK` with a JSON body.
    pub fn json(value: &Value) -> Self {
        Response { status: 200, body: value.to_string().into_bytes() }
    }

    /// An error status with a JSON `{"error": {"message": ...}}` body.
    pub fn error(status: u16, message: &str) -> Self {
        let body = serde_json::json!({ "error": { "message": message } });
        Response { status, body: body.to_string().into_bytes() }
    }
}

/// A server on `127.0.0.1` (a free port) answering each request with a handler, on its own
/// thread, until stopped (or for a minute at most).
#[derive(Debug)]
pub struct Server {
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<usize>>,
}

impl Server {
    /// Starts serving; the handler sees each request in arrival order.
    ///
    /// # Errors
    ///
    /// The listener cannot be bound.
    pub fn start<F>(mut handler: F) -> io::Result<Server>
    where
        F: FnMut(&Request) -> Response + Send + 'static,
    {
        let listener = TcpListener::bind(("127.0.0.1", 0))?;
        listener.set_nonblocking(true)?;
        let addr = listener.local_addr()?;
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let thread = std::thread::spawn(move || {
            let deadline = Instant::now() + SERVER_LIFETIME;
            let mut served = 0;
            while !flag.load(Ordering::SeqCst) && Instant::now() < deadline {
                match listener.accept() {
                    Ok((stream, _)) => {
                        // A broken connection is the client's problem; keep serving.
                        if serve_one(stream, &mut handler).is_ok() {
                            served += 1;
                        }
                    }
                    Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                        std::thread::sleep(Duration::from_millis(2));
                    }
                    Err(_) => std::thread::sleep(Duration::from_millis(2)),
                }
            }
            served
        });
        Ok(Server { addr, stop, thread: Some(thread) })
    }

    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Stops the server and returns how many requests it answered.
    pub fn stop(mut self) -> usize {
        self.shutdown()
    }

    fn shutdown(&mut self) -> usize {
        self.stop.store(true, Ordering::SeqCst);
        self.thread.take().and_then(|t| t.join().ok()).unwrap_or(0)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.shutdown();
    }
}

fn serve_one<F>(stream: TcpStream, handler: &mut F) -> Result<(), HttpError>
where
    F: FnMut(&Request) -> Response,
{
    stream.set_nonblocking(false)?;
    stream.set_read_timeout(Some(IO_TIMEOUT))?;
    stream.set_write_timeout(Some(IO_TIMEOUT))?;
    let mut reader = BufReader::new(stream);
    let (start, headers, body) = read_message(&mut reader)?;
    let mut parts = start.split_whitespace();
    let (Some(method), Some(path)) = (parts.next(), parts.next()) else {
        return Err(HttpError::Malformed(format!("request line `{start}`")));
    };
    let request = Request { method: method.to_owned(), path: path.to_owned(), headers, body };
    let response = handler(&request);
    let mut stream = reader.into_inner();
    write!(
        stream,
        "HTTP/1.1 {} {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        response.status,
        reason(response.status),
        response.body.len()
    )?;
    stream.write_all(&response.body)?;
    stream.flush()?;
    Ok(())
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        404 => "Not Found",
        _ => "Error",
    }
}

/// A start line, headers and body.
type Message = (String, Vec<(String, String)>, Vec<u8>);

/// Reads a start line, headers and a `Content-Length` body.
fn read_message<R: BufRead>(reader: &mut R) -> Result<Message, HttpError> {
    let mut start = String::new();
    reader.read_line(&mut start)?;
    let start = start.trim_end().to_owned();
    if start.is_empty() {
        return Err(HttpError::Malformed("empty message".into()));
    }
    let mut headers = Vec::new();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 {
            return Err(HttpError::Malformed("headers end early".into()));
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        let Some((name, value)) = line.split_once(':') else {
            return Err(HttpError::Malformed(format!("header `{line}`")));
        };
        headers.push((name.trim().to_ascii_lowercase(), value.trim().to_owned()));
        if headers.len() > 100 {
            return Err(HttpError::Malformed("too many headers".into()));
        }
    }
    let length = match headers.iter().find(|(n, _)| n == "content-length") {
        Some((_, v)) => {
            v.parse::<usize>().map_err(|_| HttpError::Malformed(format!("length `{v}`")))?
        }
        None => 0,
    };
    if length > MAX_BODY {
        return Err(HttpError::Malformed(format!("a body of {length} bytes")));
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body)?;
    Ok((start, headers, body))
}

/// POSTs a JSON body to a loopback server and returns the JSON answer.
///
/// # Errors
///
/// The address is not loopback, the connection fails or times out, the status is not 2xx, or
/// the answer is not JSON.
pub fn post_json(
    addr: SocketAddr,
    path: &str,
    headers: &[(&str, &str)],
    body: &Value,
) -> Result<Value, HttpError> {
    if !addr.ip().is_loopback() {
        return Err(HttpError::NotLoopback(addr));
    }
    let stream = TcpStream::connect_timeout(&addr, IO_TIMEOUT)?;
    stream.set_read_timeout(Some(IO_TIMEOUT))?;
    stream.set_write_timeout(Some(IO_TIMEOUT))?;
    let body = body.to_string();
    let mut head = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n",
        body.len()
    );
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    let mut writer = &stream;
    writer.write_all(head.as_bytes())?;
    writer.write_all(body.as_bytes())?;
    writer.flush()?;
    let mut reader = BufReader::new(&stream);
    let (status_line, _, answer) = read_message(&mut reader)?;
    let status = status_line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse::<u16>().ok())
        .ok_or_else(|| HttpError::Malformed(format!("status line `{status_line}`")))?;
    if !(200..300).contains(&status) {
        return Err(HttpError::Status {
            status,
            body: String::from_utf8_lossy(&answer).into_owned(),
        });
    }
    Ok(serde_json::from_slice(&answer)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_request_round_trips_through_the_server() {
        let server = Server::start(|req| {
            if req.path != "/echo" {
                return Response::error(404, "no such path");
            }
            let body = req.json().unwrap_or(Value::Null);
            Response::json(
                &json!({ "method": req.method, "got": body, "key": req.header("X-Key") }),
            )
        })
        .unwrap();
        let answer =
            post_json(server.addr(), "/echo", &[("X-Key", "k")], &json!({"a": 1})).unwrap();
        assert_eq!(answer, json!({ "method": "POST", "got": {"a": 1}, "key": "k" }));
        let err = post_json(server.addr(), "/nope", &[], &json!({})).unwrap_err();
        assert!(matches!(err, HttpError::Status { status: 404, .. }), "{err}");
        assert_eq!(server.stop(), 2);
    }

    #[test]
    fn only_loopback_addresses_are_contacted() {
        let addr: SocketAddr = "192.0.2.1:80".parse().unwrap();
        assert!(matches!(post_json(addr, "/", &[], &json!({})), Err(HttpError::NotLoopback(_))));
    }
}
