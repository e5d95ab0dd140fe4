/* The site's search opened from the disk (file://), with no server and no network.
 *
 * The theme searches in a Web Worker, and a browser refuses to start a worker from a file: page.
 * On such a page (only there) this script, loaded before the theme's, gives `Worker` a stand-in
 * that runs the worker's script in a hidden same-origin frame: messages go in as "message"
 * events of the frame and come back through its `postMessage`. The search index itself is read
 * from search/search_index.js, which docs/plugins/hooks.py writes beside search_index.json.
 * Written for this site (hatsuden-rules); it needs nothing else.
 */
(function () {
  "use strict";
  if (location.protocol !== "file:" || typeof window.Worker === "undefined") {
    return;
  }

  class FileWorker extends EventTarget {
    constructor(url) {
      super();
      this.queue = [];
      this.frame = document.createElement("iframe");
      this.frame.hidden = true;
      this.frame.setAttribute("aria-hidden", "true");
      this.frame.setAttribute("tabindex", "-1");
      (document.body || document.documentElement).appendChild(this.frame);
      const scope = this.frame.contentWindow;
      const self = this;
      // What the worker's script calls: postMessage answers the page, importScripts loads more.
      scope.postMessage = function (data) {
        setTimeout(function () {
          self.dispatchEvent(new MessageEvent("message", { data: structuredClone(data) }));
        }, 0);
      };
      scope.importScripts = function (...urls) {
        return Promise.all(urls.map((src) => self.load(scope, src)));
      };
      this.ready = this.load(scope, url).then(function () {
        self.started = true;
        self.queue.splice(0).forEach((data) => self.deliver(data));
      });
    }

    load(scope, src) {
      return new Promise(function (resolve, reject) {
        const script = scope.document.createElement("script");
        script.src = new URL(src, document.baseURI).href;
        script.onload = resolve;
        script.onerror = function () {
          reject(new Error("cannot load " + script.src));
        };
        scope.document.head.appendChild(script);
      });
    }

    deliver(data) {
      const scope = this.frame.contentWindow;
      scope.dispatchEvent(new scope.MessageEvent("message", { data: structuredClone(data) }));
    }

    postMessage(data) {
      if (this.started) {
        setTimeout(() => this.deliver(data), 0);
      } else {
        this.queue.push(data);
      }
    }

    terminate() {
      this.frame.remove();
    }
  }

  window.Worker = FileWorker;
})();
