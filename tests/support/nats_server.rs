//! A `nats-server` of a test's own (JetStream on, 127.0.0.1, a free port, a
//! temporary store), shared by the tests that need a real broker
//! (`mplp-nats`, `mplp watch`). Without `nats-server` on the PATH,
//! [`Server::start`] says so loudly and returns `None` (the test is skipped),
//! and fails when `CI` is set. Included with
//! `#[path = "../../../tests/support/nats_server.rs"] mod nats_server;`.
//! The examples that need a broker take theirs from [`from_env_or_start`].

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A nats-server of our own; killed (and its store removed) on drop.
pub(crate) struct Server {
    child: Child,
    /// The `nats-server` that was found ([`binary`]).
    binary: &'static str,
    port: u16,
    store: PathBuf,
}

impl Server {
    /// Starts one, or says loudly why not (and fails under CI).
    pub(crate) fn start() -> Option<Server> {
        let Some(binary) = binary() else {
            assert!(
                std::env::var_os("CI").is_none(),
                "nats-server is not installed, and CI is set: install it (apt-get install -y nats-server)"
            );
            eprintln!(
                "\n!!! SKIPPED: nats-server not found on PATH (apt-get install -y nats-server); the tests of this file did NOT run !!!\n"
            );
            return None;
        };
        let port = free_port();
        let store = std::env::temp_dir().join(format!("mplp-nats-{}-{port}", std::process::id()));
        let mut s = Server {
            child: spawn(binary, port, &store),
            binary,
            port,
            store,
        };
        s.wait_ready();
        Some(s)
    }

    /// The client URL.
    pub(crate) fn url(&self) -> String {
        format!("nats://127.0.0.1:{}", self.port)
    }

    /// Waits until the port answers, and checks that our server is the one
    /// answering (still running), not another one on the same port.
    fn wait_ready(&mut self) {
        let deadline = Instant::now() + Duration::from_secs(30);
        while std::net::TcpStream::connect(("127.0.0.1", self.port)).is_err() {
            assert!(Instant::now() < deadline, "nats-server did not start");
            std::thread::sleep(Duration::from_millis(50));
        }
        std::thread::sleep(Duration::from_millis(100));
        assert!(
            matches!(self.child.try_wait(), Ok(None)),
            "nats-server on port {} exited after starting (port taken?)",
            self.port
        );
    }

    /// Kills the server and starts it again on the same port and store.
    #[allow(dead_code)] // not every includer restarts its server
    pub(crate) fn restart(&mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
        self.child = spawn(self.binary, self.port, &self.store);
        self.wait_ready();
    }
}

/// A free port no other server of this test process has had: the tests of
/// one binary run in parallel, and a port just released by one test's probe
/// could otherwise be handed to another's (two servers on one port, the
/// first to stop taking the other's clients with it).
fn free_port() -> u16 {
    static GIVEN: std::sync::Mutex<Vec<u16>> = std::sync::Mutex::new(Vec::new());
    let mut given = GIVEN
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    loop {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        if !given.contains(&port) {
            given.push(port);
            return port;
        }
    }
}

/// The `nats-server` to run: the one on the PATH, else the Debian
/// package's (`/usr/sbin` is not on every user's PATH); `None` when
/// neither runs.
fn binary() -> Option<&'static str> {
    [
        "nats-server",
        "/usr/sbin/nats-server",
        "/usr/bin/nats-server",
    ]
    .into_iter()
    .find(|b| {
        Command::new(b)
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok()
    })
}

/// For the examples: the broker at `MPLP_NATS_URL` when it is set (no
/// server of ours), else a server of our own, which must start. The server
/// (if any) and the client URL.
#[allow(dead_code)] // the tests start their own with `Server::start`
pub(crate) fn from_env_or_start() -> (Option<Server>, String) {
    if let Ok(url) = std::env::var("MPLP_NATS_URL") {
        return (None, url);
    }
    let server = Server::start()
        .expect("nats-server (apt-get install -y nats-server), or set MPLP_NATS_URL");
    let url = server.url();
    (Some(server), url)
}

fn spawn(binary: &str, port: u16, store: &Path) -> Child {
    Command::new(binary)
        .args(["-a", "127.0.0.1", "-p", &port.to_string(), "-js", "-sd"])
        .arg(store)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.store);
    }
}
