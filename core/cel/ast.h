// SPDX-License-Identifier: Apache-2.0
#pragma once

// Expression tree shared by parser, checker, cost estimator and interpreter. The parser fills
// the syntactic fields; the checker annotates types, resolves names to slots/builtins and folds
// constants, so the interpreter walks the same tree without any lookups by name.

#include <memory>
#include <string>
#include <vector>

#include "core/cel/types.h"
#include "core/cel/value.h"

namespace drasim::cel {

enum class NodeKind : uint8_t {
    Literal,
    Ident,
    Select, ///< args[0].name
    OptSelect, ///< args[0].?name
    Index, ///< args[0][args[1]]
    OptIndex, ///< args[0][?args[1]]
    Call, ///< name(args...) or args[0].name(args[1..]) when hasReceiver
    List, ///< elements; optionalEntries marks `?e`
    Map, ///< args = k0, v0, k1, v1, ...; optionalEntries per entry marks `?k: v`
    Ternary, ///< args[0] ? args[1] : args[2]
    And,
    Or,
    Has, ///< has(args[0].name): args[0] is the operand
    Comprehension, ///< macro over args[0] (range) with args[1..]
    Bind, ///< cel.bind(name, args[0], args[1])
    // Produced by the checker:
    Local, ///< iteration or bind variable in `slot`
    DeviceVar, ///< the `device` variable
    DeviceAttr, ///< device.attributes|capacity[literal domain].name (flag in `slot`: 0/1)
    DeviceDriver, ///< device.driver
};

enum class Macro : uint8_t {
    None,
    All,
    Exists,
    ExistsOne,
    Map, ///< args: range, transform
    MapFilter, ///< args: range, filter, transform
    Filter, ///< args: range, predicate
    TransformList, ///< two variables: args range, [filter,] transform
    TransformMap, ///< two variables
    TransformMapEntry, ///< two variables; transform yields a single-entry map
    SortBy, ///< list.sortBy(x, key) (cel-go lists extension)
    OptMap, ///< opt.optMap(x, expr) (optional library)
    OptFlatMap ///< opt.optFlatMap(x, optionalExpr)
};

struct Node;
using NodePtr = std::unique_ptr<Node>;

/// Runtime implementation of a builtin function: arguments are evaluated, receiver first.
struct EvalContext;
using BuiltinFn = Value (*)(EvalContext& ctx, const Value* args, size_t count, const Node& call);

struct Node
{
    NodeKind kind = NodeKind::Literal;
    size_t offset = 0; ///< byte offset in the expression (for error positions)
    std::string name; ///< identifier, field, function, bind or first iteration variable
    std::string name2; ///< second iteration variable (two-variable macros, DeviceAttr name)
    Value literal; ///< literal value or folded constant
    std::vector<NodePtr> args;
    std::vector<bool> optionalEntries;
    bool hasReceiver = false;
    Macro macro = Macro::None;
    bool filtered = false; ///< comprehension has a filter argument

    // Checker annotations.
    CelType type;
    BuiltinFn fn = nullptr;
    int slot = -1;
    int slot2 = -1;
    std::shared_ptr<const void> extra; ///< precompiled data (e.g. RE2 for a literal pattern)
};

/// Number of nodes in the tree (cost/size heuristics and tests).
size_t countNodes(const Node& n);

} // namespace drasim::cel
