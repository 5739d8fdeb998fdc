"""What the stand-in services of the browser tests share: JSON answers, quiet logs, a free local port."""
import http.server
import json
import threading


class JSONHandler(http.server.BaseHTTPRequestHandler):
    def answer(self, code, body, headers=None):
        self.send(code, "application/json; charset=utf-8", json.dumps(body).encode(), headers)

    def send(self, code, content_type, data, headers=None):
        self.send_response(code)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


def serve(handler):
    """Serves on a free port of 127.0.0.1 in a daemon thread; returns the base URL."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}"
