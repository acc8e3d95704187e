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

/// How a call's actual cost depends on its argument sizes at run time (cel-go's runtime cost
/// tracker mirrors the estimator rule by rule). Fixed calls cost their static `runCost`.
enum class CostRule : uint8_t {
    Fixed,
    // Charged by the builtin itself (its hot path already looks at the arguments):
    Equality, ///< == != : 0.1 x the smaller size
    Matches, ///< s.matches(p): (0.1 x (size(s) + 1)) x (0.25 x size(p))
    // Charged by the interpreter before the call:
    Ordering, ///< < <= > >= : like Equality for strings/bytes, else 1
    Add, ///< string/bytes: 0.1 x the sum of sizes, else 1
    In, ///< list: its size, else 1
    Contains, ///< (0.1 x receiver) x (0.1 x argument)
    PrefixSuffix, ///< 0.1 x argument
    Find, ///< find/findAll: like Matches
    ConvertSized, ///< string(bytes), bytes(string): 0.1 x argument, else 1
    Traverse, ///< 0.1 x first argument (format, quote, url, lowerAscii, substring, ...)
    TraverseTwice, ///< 0.2 x first argument (replace, split)
    ListScan, ///< isSorted/sum/min/max/indexOf/lastIndexOf
    Join, ///< 0.1 x result size
    ContainsIP, ///< 4, plus 0.1 x a string argument
    ContainsCIDR, ///< 7, plus 0.1 x a string argument
    Sets, ///< size x size (x2 for equivalent) + 1
    ListAlloc, ///< result size + 11 (slice, reverse, lists.range)
    Flatten, ///< depth x size + 11
    SelfCompare, ///< 2 x size^2 + 11 (2.1 for strings/bytes): sort, distinct
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
    CostRule costRule = CostRule::Fixed; ///< set by the cost estimator
    uint16_t iterCost = 0; ///< comprehensions: actual cost per element besides the body
    uint32_t runCost = 0; ///< static actual cost of evaluating this node (estimator sets it)
    /// Calls with a size-dependent cost: the estimator's size bounds of the first two arguments
    /// (UINT32_MAX: none). Evaluation measures sizes up to these bounds (see runtime_cost.h).
    uint32_t sizeBound[2] = { UINT32_MAX, UINT32_MAX };

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
