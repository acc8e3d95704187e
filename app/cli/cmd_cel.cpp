// SPDX-License-Identifier: Apache-2.0
// drasim cel: compile a DRA device selector like the API server and show, for every device in
// the given ResourceSlices, whether it matches, does not match, or fails at run time (and why).
#include <CLI/CLI.hpp>
#include <memory>
#include <string>
#include <vector>

#include "app/cli/cli_support.h"
#include "app/cli/command_registry.h"
#include "core/cel/cel.h"
#include "core/session/selector_preview.h"
#include "core/yamlio/loader.h"

namespace {
namespace cmd_cel {

struct CompiledSelector
{
    std::shared_ptr<const drasim::cel::Selector> selector;
};

/// file:line:column of a position inside an expression whose scalar starts at `at`. Exact for
/// plain and quoted one-line scalars; for multi-line scalars the line is offset from the scalar's
/// first line (an approximation: block scalars start on the following line).
std::string locate(const drasim::SourcePos& at, const drasim::cel::CompileError& e, bool quoted)
{
    int line = at.line + e.line - 1;
    int column = e.line == 1 ? at.column + e.column - 1 + (quoted ? 1 : 0) : e.column;
    return at.file + ":" + std::to_string(line) + ":" + std::to_string(column);
}

struct Args
{
    std::string className;
    std::string expression; ///< empty with --class
    std::vector<std::string> files;
};

int run(const Args& args)
{
    using namespace drasim;
    const std::string& className = args.className;
    const bool haveExpression = className.empty();
    const std::string& expression = args.expression;
    const std::vector<std::string>& files = args.files;

    std::vector<CompiledSelector> selectors;
    std::string classLabel;
    if (haveExpression) {
        cel::CompileError error;
        auto s = cel::Selector::compile(expression, &error);
        if (!s) {
            cli::printError("<expression>:" + std::to_string(error.line) + ":" + std::to_string(error.column)
                + ": compile-error: " + error.message);
            return 1;
        }
        selectors.push_back({ s });
    }

    yamlio::LoadResult loaded = yamlio::loadPaths(files);
    if (!loaded.diagnostics.all().empty())
        cli::printError(loaded.diagnostics.formatAll());
    if (loaded.diagnostics.hasErrors())
        return 1;

    if (!className.empty()) {
        const api::DeviceClass* found = nullptr;
        for (const auto& c : loaded.objects.deviceClasses) {
            if (c.meta.name == className)
                found = &c;
        }
        if (!found) {
            cli::printError("DeviceClass \"" + className + "\" not found in the given files");
            return 1;
        }
        classLabel = "class " + className + ": ";
        bool failed = false;
        for (size_t i = 0; i < found->selectors.size(); ++i) {
            const auto& sel = found->selectors[i];
            cel::CompileError error;
            auto s = cel::Selector::compile(sel.expression, &error);
            if (!s) {
                cli::printError(locate(sel.pos, error, false) + ": DeviceClass " + className
                    + ": spec.selectors[" + std::to_string(i)
                    + "].cel.expression: compile-error: " + error.message);
                failed = true;
                continue;
            }
            selectors.push_back({ s });
        }
        if (failed)
            return 1;
    }

    std::vector<std::shared_ptr<const cel::Selector>> compiled;
    for (const auto& s : selectors)
        compiled.push_back(s.selector);
    const session::SelectorPreview preview = session::evaluateSelectors(compiled, loaded.objects);
    std::string out;
    for (const auto& v : preview.devices) {
        std::string verdict = v.match == session::DeviceMatch::Match ? "match"
            : v.match == session::DeviceMatch::NoMatch               ? "nomatch"
                                                                     : "error: " + classLabel + "selector #"
                + std::to_string(v.selector) + ": CEL runtime error: " + v.error;
        out += v.driver + "/" + v.pool + "/" + v.device + "  " + verdict + "\n";
    }
    const size_t matched = preview.matched, unmatched = preview.unmatched, errors = preview.errors;
    size_t total = matched + unmatched + errors;
    out += std::to_string(total) + (total == 1 ? " device: " : " devices: ") + std::to_string(matched)
        + " match, " + std::to_string(unmatched) + " nomatch, " + std::to_string(errors) + " error\n";
    cli::printStdout(out);
    return 0;
}

drasim::cli::Runner define(CLI::App& app)
{
    auto args = std::make_shared<Args>();
    app.description(
        R"(Compiles a CEL device selector the way the Kubernetes API server validates new expressions
(type check, result bool or dyn, cost estimate <= 1,000,000) and evaluates it against every
device of every ResourceSlice in FILE... (files or directories of manifests).
With --class, the selectors of DeviceClass NAME (found in FILE...) are used, in order; a device
matches when all of them yield true, and evaluation stops at the first false, as in the scheduler.

Output, one line per device in input order:
  DRIVER/POOL/DEVICE  match
  DRIVER/POOL/DEVICE  nomatch
  DRIVER/POOL/DEVICE  error: selector #0: CEL runtime error: no such key: model
followed by a summary line. A runtime error makes the scheduler keep the pod pending.)");
    app.footer(
        R"(Exit status: 0 when the selector compiled (whatever matched), 1 on a compile error or invalid
input (diagnostics on stderr), 2 on bad usage.)");
    app.add_option("EXPRESSION", args->expression, "the CEL selector (left out with --class)");
    // Not required() here: with --class the only positional lands in EXPRESSION and is a file.
    app.add_option("FILE", args->files, "manifests with the ResourceSlices (and the DeviceClass)");
    app.add_option(
           "--class", args->className, "use the selectors of DeviceClass NAME instead of an EXPRESSION")
        ->option_text("NAME");
    app.callback([args] {
        if (!args->className.empty() && !args->expression.empty()) {
            args->files.insert(
                args->files.begin(), args->expression); // with --class every positional is a file
            args->expression.clear();
        }
        if ((args->className.empty() && args->expression.empty()) || args->files.empty())
            throw CLI::ValidationError("need an EXPRESSION (or --class NAME) and at least one FILE");
    });
    return [args] { return run(*args); };
}

const bool registered = drasim::cli::registerCommand(
    { "cel", "evaluate a CEL device selector against the devices in ResourceSlices", define });

} // namespace cmd_cel
} // namespace
