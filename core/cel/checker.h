// SPDX-License-Identifier: Apache-2.0
#pragma once

// Type checker in the Kubernetes DRA environment: resolves names (device, iteration and bind
// variables, type denotations), picks overloads, enforces homogeneous literals and the result
// type rule, validates literal regexes, and folds literal conversions like cel-go's planner.

#include <string>

#include "core/cel/ast.h"

namespace drasim::cel {

struct CheckError
{
    std::string message;
    size_t offset = 0;
};

struct CheckResult
{
    int slotCount = 0; ///< local variable slots the interpreter must provide
};

/// Which result types an expression may have: a selector's (bool or dyn), or a derived
/// attribute's (a scalar attribute type, optionally a list of them: validateOutputType of
/// dynamic-resource-allocation/cel/compile.go).
enum class ResultRule { Selector, DerivedScalar, DerivedScalarOrList };

/// Checks and annotates the tree in place; may replace nodes (folding). Returns false on error.
/// `fold = false` leaves every constant subexpression to the interpreter: tests compare both
/// ways of evaluating (folding must not change a value, only move a failure to compile time).
bool checkExpression(NodePtr& root, CheckResult* result, CheckError* error, bool fold = true,
    ResultRule rule = ResultRule::Selector);

} // namespace drasim::cel
