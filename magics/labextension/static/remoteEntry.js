// mskernel's JupyterLab extension: a %%custom_op cell whose body is C++ is edited with C++ highlighting.
//
// Written by hand as a module-federation container (the interface JupyterLab loads prebuilt extensions
// through: `init(shareScope)` then `get("./extension")`), so it needs no JavaScript build step and ships as
// a plain file in the Python package. It takes INotebookTracker from the share scope JupyterLab provides.
// A cell is C++ by the same rule as mskernel.cells.detect_language (tests/widgets/test_lab_extension.py
// checks the patterns agree): "%%custom_op" on the first line, and "--lang cpp", or no "--lang" and one of
// the markers in its body.
(function () {
  "use strict";
  const NAME = "mskernel";
  const CPP_MIME = "text/x-c++src";
  const MAGIC = /^\s*%%custom_op\b(.*)$/;
  const LANG = /(?:^|\s)--lang(?:\s+|=)["']?(cpp|hybrid)\b/;
  const CPP_MARKERS = [
    /^\s*#\s*include\b/m,
    /\bPYBIND11_MODULE\s*\(/,
    /\bFunction\s*</,
  ];

  function isCppCell(source) {
    const newline = source.indexOf("\n");
    const first = newline < 0 ? source : source.slice(0, newline);
    const magic = MAGIC.exec(first);
    if (!magic) return false;
    const lang = LANG.exec(magic[1]);
    if (lang) return lang[1] === "cpp";
    const body = newline < 0 ? "" : source.slice(newline + 1);
    return CPP_MARKERS.some((p) => p.test(body));
  }

  function watchNotebook(panel) {
    const notebook = panel.content;
    const seen = new WeakSet();
    const watch = (model) => {
      if (model.type !== "code" || seen.has(model)) return;
      seen.add(model);
      const apply = () => {
        const cpp = isCppCell(model.sharedModel.getSource());
        if (cpp && model.mimeType !== CPP_MIME) {
          model.mimeType = CPP_MIME;
        } else if (!cpp && model.mimeType === CPP_MIME && notebook.codeMimetype !== CPP_MIME) {
          model.mimeType = notebook.codeMimetype;
        }
      };
      model.sharedModel.changed.connect((_, change) => { if (change.sourceChange) apply(); });
      model.mimeTypeChanged.connect(apply); // the notebook resets every cell when the kernel's language arrives
      apply();
    };
    const watchAll = () => {
      if (!notebook.model) return;
      for (let i = 0; i < notebook.model.cells.length; i++) watch(notebook.model.cells.get(i));
    };
    notebook.modelChanged.connect(() => {
      watchAll();
      if (notebook.model) notebook.model.cells.changed.connect(watchAll);
    });
    watchAll();
    if (notebook.model) notebook.model.cells.changed.connect(watchAll);
  }

  function plugin(notebookModule) {
    return {
      id: "mskernel:custom-op-cells",
      description: "Highlights %%custom_op C++ cells as C++.",
      autoStart: true,
      requires: [notebookModule.INotebookTracker],
      activate(app, tracker) {
        tracker.forEach(watchNotebook);
        tracker.widgetAdded.connect((_, panel) => watchNotebook(panel));
      },
    };
  }

  let shareScope = null;

  function shared(name) {
    const versions = shareScope && shareScope[name];
    if (!versions) return Promise.reject(new Error(`${NAME}: JupyterLab shares no module ${name}`));
    const newest = Object.keys(versions).sort((a, b) => a.localeCompare(b, undefined, { numeric: true })).pop();
    return Promise.resolve(versions[newest].get()).then((factory) => factory());
  }

  const root = typeof window !== "undefined" ? window : self;
  root._JUPYTERLAB = root._JUPYTERLAB || {};
  root._JUPYTERLAB[NAME] = {
    isCppCell, // for tests/widgets/test_lab_extension.py
    init(scope) {
      shareScope = scope;
    },
    get(module) {
      if (module !== "./extension") {
        return Promise.reject(new Error(`${NAME}: no module ${module} in this container`));
      }
      return shared("@jupyterlab/notebook").then((nb) => () => ({ __esModule: true, default: plugin(nb) }));
    },
  };
})();
