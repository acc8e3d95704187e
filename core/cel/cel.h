// SPDX-License-Identifier: Apache-2.0
#pragma once

// Public face of the CEL module: compile a DRA device selector once, evaluate it against many
// devices. Everything else in core/cel is internal.

#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "core/api/resource_v1.h"

namespace drasim::cel {

/// A compile-time rejection, located inside the expression (1-based line/column within the
/// expression text, so callers can add the manifest position of the expression).
struct CompileError
{
    std::string message; ///< like the API server: "undeclared reference to 'foo'", ...
    int line = 1;
    int column = 1;
};

/// What a device looks like to a selector. Pointers must stay valid during evaluate().
struct DeviceView
{
    std::string_view driver;
    const std::map<std::string, api::DeviceAttribute>* attributes = nullptr;
    const std::map<std::string, api::DeviceCapacity>* capacity = nullptr;
    bool allowMultipleAllocations = false;
};

enum class Outcome { True, False, Error };

struct EvalResult
{
    Outcome outcome = Outcome::False;
    std::string error; ///< set when outcome == Error, e.g. "no such key: model"
};

class Program; // opaque compiled expression

/// Compiled selector; cheap to copy and share between threads (immutable).
class Selector
{
public:
    /// Compiles like the API server does for new expressions (type check, result must be bool or
    /// dyn, cost estimate <= 1,000,000, expression <= 10 KiB). On failure returns null and fills error.
    static std::shared_ptr<const Selector> compile(std::string_view expression, CompileError* error);

    /// Compiles like the scheduler does for stored expressions (cel.md §1): same parser and type
    /// checker, but no cost estimate and no length limit; the runtime cost budget still applies.
    static std::shared_ptr<const Selector> compileStored(std::string_view expression, CompileError* error);

    /// Evaluates against one device. Never throws; runtime errors (no such key, overflow, cost
    /// limit, non-bool result) come back as Outcome::Error with the CEL message.
    EvalResult evaluate(const DeviceView& device) const;

    const std::string& expression() const;

    explicit Selector(std::shared_ptr<const Program> program);

private:
    std::shared_ptr<const Program> m_program;
};

} // namespace drasim::cel
