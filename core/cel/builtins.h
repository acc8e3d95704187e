// SPDX-License-Identifier: Apache-2.0
#pragma once

// The function environment: static declarations for the checker (overloads with types) and the
// runtime implementations the interpreter calls, one per function name.

#include <string>
#include <string_view>
#include <vector>

#include "core/cel/ast.h"
#include "core/cel/interpreter.h"

namespace drasim::cel {

struct Overload
{
    bool receiver = false;
    std::vector<CelType> params; ///< receiver first when receiver-style
    CelType result;
};

struct FunctionDecl
{
    std::string name;
    std::vector<Overload> overloads;
    BuiltinFn impl = nullptr;
};

/// Declared function by name, or null. Names of operators follow cel-go ("_+_", "@in", ...).
const FunctionDecl* findFunction(std::string_view name);

/// Functions whose call with a literal argument is evaluated at planning time (cel.md §6:
/// a failure rejects the expression).
bool isConversionFunction(std::string_view name);

// Shared helpers of the builtin implementations.
Value noSuchOverload(std::string_view fn);
Value quantityFromString(std::string_view text);
Value semverFromString(std::string_view text, bool normalize);
/// Whether apimachinery's AsInt64 would succeed for this quantity value (cel.md §8).
bool quantityAsInteger(const Value& q, int64_t* out);
/// Timestamp/duration arithmetic (+ when !subtract): overflow and range errors as values.
Value timeArithmetic(const Value& a, const Value& b, bool subtract);
/// Code-point length of UTF-8 text.
size_t utf8Length(std::string_view s);

} // namespace drasim::cel
