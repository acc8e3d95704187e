// SPDX-License-Identifier: Apache-2.0
#include "core/cel/parser.h"

#include <cerrno>
#include <cstdlib>
#include <set>

#include "core/cel/lexer.h"

namespace drasim::cel {

namespace {

// Deep nesting is bounded so that hostile input cannot exhaust the stack; cel-go's default
// recursion limit is 250 and the spec requires at least 12 levels.
constexpr int kMaxDepth = 250;

const std::set<std::string, std::less<>> kReserved = { "as", "break", "const", "continue", "else", "for",
    "function", "if", "import", "let", "loop", "package", "namespace", "return", "var", "void", "while" };

struct ParseFailure
{
    std::string message;
    size_t offset;
};

std::string describe(const Token& t)
{
    switch (t.kind) {
    case Tok::End:
        return "<EOF>";
    case Tok::Ident:
    case Tok::Int:
    case Tok::Double:
        return t.text;
    case Tok::Uint:
        return t.text + "u";
    case Tok::String:
        return "\"" + t.text + "\"";
    case Tok::Bytes:
        return "b\"" + t.text + "\"";
    case Tok::True:
        return "true";
    case Tok::False:
        return "false";
    case Tok::Null:
        return "null";
    case Tok::In:
        return "in";
    case Tok::LParen:
        return "(";
    case Tok::RParen:
        return ")";
    case Tok::LBracket:
        return "[";
    case Tok::LBracketQuestion:
        return "[?";
    case Tok::RBracket:
        return "]";
    case Tok::LBrace:
        return "{";
    case Tok::RBrace:
        return "}";
    case Tok::Dot:
        return ".";
    case Tok::DotQuestion:
        return ".?";
    case Tok::Comma:
        return ",";
    case Tok::Colon:
        return ":";
    case Tok::Question:
        return "?";
    case Tok::Not:
        return "!";
    case Tok::Minus:
        return "-";
    case Tok::Plus:
        return "+";
    case Tok::Star:
        return "*";
    case Tok::Slash:
        return "/";
    case Tok::Percent:
        return "%";
    case Tok::Eq:
        return "==";
    case Tok::Ne:
        return "!=";
    case Tok::Lt:
        return "<";
    case Tok::Le:
        return "<=";
    case Tok::Gt:
        return ">";
    case Tok::Ge:
        return ">=";
    case Tok::And:
        return "&&";
    case Tok::Or:
        return "||";
    case Tok::Error:
        return "error";
    }
    return "?";
}

NodePtr makeNode(NodeKind kind, size_t offset)
{
    auto n = std::make_unique<Node>();
    n->kind = kind;
    n->offset = offset;
    return n;
}

NodePtr makeCall(std::string fn, size_t offset, std::vector<NodePtr> args)
{
    auto n = makeNode(NodeKind::Call, offset);
    n->name = std::move(fn);
    n->args = std::move(args);
    return n;
}

class Parser
{
public:
    explicit Parser(std::vector<Token> tokens)
        : m_t(std::move(tokens))
    { }

    NodePtr parseAll()
    {
        NodePtr e = expr();
        if (cur().kind != Tok::End)
            fail("Syntax error: mismatched input '" + describe(cur()) + "' expecting <EOF>");
        return e;
    }

private:
    std::vector<Token> m_t;
    size_t m_i = 0;
    int m_depth = 0;

    const Token& cur() const { return m_t[m_i]; }
    const Token& ahead(size_t k) const { return m_t[std::min(m_i + k, m_t.size() - 1)]; }
    Token take() { return m_t[m_i < m_t.size() - 1 ? m_i++ : m_i]; }
    bool accept(Tok k)
    {
        if (cur().kind != k)
            return false;
        take();
        return true;
    }
    [[noreturn]] void fail(std::string msg) const { throw ParseFailure { std::move(msg), cur().offset }; }
    [[noreturn]] void failAt(std::string msg, size_t offset) const
    {
        throw ParseFailure { std::move(msg), offset };
    }
    void expect(Tok k, const char* what)
    {
        if (cur().kind == Tok::Error)
            failAt(cur().text, cur().offset);
        if (!accept(k))
            fail("Syntax error: mismatched input '" + describe(cur()) + "' expecting " + what);
    }

    /// Left-deep chains (a + b + c, a.b.c, - - x) deepen the tree without recursing in the
    /// parser; each link counts against the same depth limit so later tree walks stay shallow.
    struct ChainGuard
    {
        Parser& p;
        int added = 0;
        explicit ChainGuard(Parser& parser)
            : p(parser)
        { }
        void step()
        {
            ++added;
            if (++p.m_depth > kMaxDepth)
                p.fail("Syntax error: expression recursion limit exceeded");
        }
        ~ChainGuard() { p.m_depth -= added; }
    };

    /// && and || chains become balanced trees (as cel-go does), so a long chain stays shallow;
    /// the operators are commutative with error absorption, so grouping cannot change results.
    static NodePtr balance(
        NodeKind kind, std::vector<NodePtr>& terms, std::vector<size_t>& ops, size_t lo, size_t hi)
    {
        if (lo == hi)
            return std::move(terms[lo]);
        size_t mid = (lo + hi) / 2;
        auto n = makeNode(kind, ops[mid]);
        n->args.push_back(balance(kind, terms, ops, lo, mid));
        n->args.push_back(balance(kind, terms, ops, mid + 1, hi));
        return n;
    }

    struct DepthGuard
    {
        Parser& p;
        explicit DepthGuard(Parser& parser)
            : p(parser)
        {
            if (++p.m_depth > kMaxDepth)
                p.fail("Syntax error: expression recursion limit exceeded");
        }
        ~DepthGuard() { --p.m_depth; }
    };

    NodePtr expr()
    {
        DepthGuard g(*this);
        NodePtr c = conditionalOr();
        if (cur().kind != Tok::Question)
            return c;
        size_t at = take().offset;
        NodePtr a = conditionalOr();
        expect(Tok::Colon, "':'");
        NodePtr b = expr();
        auto n = makeNode(NodeKind::Ternary, at);
        n->args.push_back(std::move(c));
        n->args.push_back(std::move(a));
        n->args.push_back(std::move(b));
        return n;
    }

    NodePtr conditionalOr()
    {
        std::vector<NodePtr> terms;
        std::vector<size_t> ops;
        terms.push_back(conditionalAnd());
        while (cur().kind == Tok::Or) {
            ops.push_back(take().offset);
            terms.push_back(conditionalAnd());
        }
        return balance(NodeKind::Or, terms, ops, 0, terms.size() - 1);
    }

    NodePtr conditionalAnd()
    {
        std::vector<NodePtr> terms;
        std::vector<size_t> ops;
        terms.push_back(relation());
        while (cur().kind == Tok::And) {
            ops.push_back(take().offset);
            terms.push_back(relation());
        }
        return balance(NodeKind::And, terms, ops, 0, terms.size() - 1);
    }

    static const char* relop(Tok k)
    {
        switch (k) {
        case Tok::Eq:
            return "_==_";
        case Tok::Ne:
            return "_!=_";
        case Tok::Lt:
            return "_<_";
        case Tok::Le:
            return "_<=_";
        case Tok::Gt:
            return "_>_";
        case Tok::Ge:
            return "_>=_";
        case Tok::In:
            return "@in";
        default:
            return nullptr;
        }
    }

    NodePtr relation()
    {
        NodePtr l = addition();
        ChainGuard chain(*this);
        while (const char* op = relop(cur().kind)) {
            chain.step();
            size_t at = take().offset;
            std::vector<NodePtr> a;
            a.push_back(std::move(l));
            a.push_back(addition());
            l = makeCall(op, at, std::move(a));
        }
        return l;
    }

    NodePtr addition()
    {
        NodePtr l = multiplication();
        ChainGuard chain(*this);
        while (cur().kind == Tok::Plus || cur().kind == Tok::Minus) {
            chain.step();
            const char* op = cur().kind == Tok::Plus ? "_+_" : "_-_";
            size_t at = take().offset;
            std::vector<NodePtr> a;
            a.push_back(std::move(l));
            a.push_back(multiplication());
            l = makeCall(op, at, std::move(a));
        }
        return l;
    }

    NodePtr multiplication()
    {
        NodePtr l = unary();
        ChainGuard chain(*this);
        while (cur().kind == Tok::Star || cur().kind == Tok::Slash || cur().kind == Tok::Percent) {
            chain.step();
            const char* op = cur().kind == Tok::Star ? "_*_" : (cur().kind == Tok::Slash ? "_/_" : "_%_");
            size_t at = take().offset;
            std::vector<NodePtr> a;
            a.push_back(std::move(l));
            a.push_back(unary());
            l = makeCall(op, at, std::move(a));
        }
        return l;
    }

    NodePtr unary()
    {
        DepthGuard g(*this);
        if (cur().kind == Tok::Not || cur().kind == Tok::Minus) {
            Tok op = cur().kind;
            std::vector<size_t> offsets;
            ChainGuard chain(*this);
            while (cur().kind == op) {
                chain.step();
                offsets.push_back(take().offset);
            }
            NodePtr operand;
            // A '-' written directly before a numeric literal belongs to the literal (so that
            // -9223372036854775808 is representable), as in the CEL grammar.
            if (op == Tok::Minus && (cur().kind == Tok::Int || cur().kind == Tok::Double)) {
                operand = member(true, offsets.back());
                offsets.pop_back();
            } else {
                operand = member(false, 0);
            }
            for (size_t k = offsets.size(); k-- > 0;) {
                std::vector<NodePtr> a;
                a.push_back(std::move(operand));
                operand = makeCall(op == Tok::Not ? "!_" : "-_", offsets[k], std::move(a));
            }
            return operand;
        }
        return member(false, 0);
    }

    NodePtr member(bool negativeLiteral, size_t minusOffset)
    {
        NodePtr e = primary(negativeLiteral, minusOffset);
        ChainGuard chain(*this);
        for (;;) {
            if (cur().kind == Tok::Dot || cur().kind == Tok::DotQuestion || cur().kind == Tok::LBracket
                || cur().kind == Tok::LBracketQuestion)
                chain.step();
            if (cur().kind == Tok::Dot || cur().kind == Tok::DotQuestion) {
                bool opt = cur().kind == Tok::DotQuestion;
                size_t at = take().offset;
                if (cur().kind != Tok::Ident)
                    fail("Syntax error: no viable alternative at input '." + describe(cur()) + "'");
                std::string field = take().text;
                if (!opt && cur().kind == Tok::LParen) {
                    take();
                    std::vector<NodePtr> args;
                    args.push_back(std::move(e));
                    exprList(args, Tok::RParen, "')'");
                    e = receiverCall(field, at, std::move(args));
                    continue;
                }
                auto n = makeNode(opt ? NodeKind::OptSelect : NodeKind::Select, at);
                n->name = std::move(field);
                n->args.push_back(std::move(e));
                e = std::move(n);
            } else if (cur().kind == Tok::LBracket || cur().kind == Tok::LBracketQuestion) {
                bool opt = cur().kind == Tok::LBracketQuestion;
                size_t at = take().offset;
                auto n = makeNode(opt ? NodeKind::OptIndex : NodeKind::Index, at);
                n->args.push_back(std::move(e));
                n->args.push_back(expr());
                expect(Tok::RBracket, "']'");
                e = std::move(n);
            } else {
                return e;
            }
        }
    }

    void exprList(std::vector<NodePtr>& out, Tok close, const char* closeText)
    {
        if (accept(close))
            return;
        for (;;) {
            out.push_back(expr());
            if (accept(close))
                return;
            expect(Tok::Comma, closeText);
        }
    }

    NodePtr intLiteral(const Token& t, bool negative, size_t at)
    {
        auto n = makeNode(NodeKind::Literal, at);
        errno = 0;
        std::string digits = t.text;
        if (t.kind == Tok::Uint) {
            if (t.hex)
                digits = t.text;
            else if (!digits.empty() && (digits.back() == 'u' || digits.back() == 'U'))
                digits.pop_back();
            char* end = nullptr;
            unsigned long long v = std::strtoull(digits.c_str(), &end, t.hex ? 16 : 10);
            if (errno == ERANGE)
                failAt("Syntax error: invalid uint literal", at);
            n->literal = Value::uinteger(v);
            return n;
        }
        char* end = nullptr;
        unsigned long long mag = std::strtoull(digits.c_str(), &end, t.hex ? 16 : 10);
        if (errno == ERANGE || mag > (negative ? 9223372036854775808ULL : 9223372036854775807ULL))
            failAt("Syntax error: invalid int literal", at);
        n->literal = Value::integer(negative ? int64_t(0 - mag) : int64_t(mag));
        return n;
    }

    NodePtr primary(bool negativeLiteral, size_t minusOffset)
    {
        DepthGuard g(*this);
        const Token& t = cur();
        size_t at = negativeLiteral ? minusOffset : t.offset;
        switch (t.kind) {
        case Tok::Error:
            failAt(t.text, t.offset);
        case Tok::Int:
        case Tok::Uint: {
            Token tok = take();
            return intLiteral(tok, negativeLiteral, at);
        }
        case Tok::Double: {
            Token tok = take();
            auto n = makeNode(NodeKind::Literal, at);
            double d = std::strtod(tok.text.c_str(), nullptr);
            n->literal = Value::dbl(negativeLiteral ? -d : d);
            return n;
        }
        case Tok::String: {
            auto n = makeNode(NodeKind::Literal, at);
            n->literal = Value::string(take().text);
            return n;
        }
        case Tok::Bytes: {
            auto n = makeNode(NodeKind::Literal, at);
            n->literal = Value::string(take().text, Kind::Bytes);
            return n;
        }
        case Tok::True:
        case Tok::False: {
            auto n = makeNode(NodeKind::Literal, at);
            n->literal = Value::boolean(take().kind == Tok::True);
            return n;
        }
        case Tok::Null:
            take();
            return makeNode(NodeKind::Literal, at);
        case Tok::LParen: {
            take();
            NodePtr e = expr();
            expect(Tok::RParen, "')'");
            return e;
        }
        case Tok::LBracket:
        case Tok::LBracketQuestion: {
            // The lexer reads "[?" as one token (for optional indexing); at the start of a list
            // literal it is "[" followed by an optional first element: [?opt, x].
            bool firstOptional = take().kind == Tok::LBracketQuestion;
            auto n = makeNode(NodeKind::List, at);
            while (firstOptional || cur().kind != Tok::RBracket) {
                bool opt = firstOptional || accept(Tok::Question);
                firstOptional = false;
                n->optionalEntries.push_back(opt);
                n->args.push_back(expr());
                if (!accept(Tok::Comma))
                    break;
            }
            expect(Tok::RBracket, "']'");
            return n;
        }
        case Tok::LBrace: {
            take();
            auto n = makeNode(NodeKind::Map, at);
            while (cur().kind != Tok::RBrace) {
                bool opt = accept(Tok::Question);
                n->optionalEntries.push_back(opt);
                n->args.push_back(expr());
                expect(Tok::Colon, "':'");
                n->args.push_back(expr());
                if (!accept(Tok::Comma))
                    break;
            }
            expect(Tok::RBrace, "'}'");
            return n;
        }
        case Tok::Dot:
        case Tok::Ident: {
            if (t.kind == Tok::Dot) {
                take(); // leading-dot qualified name: resolves from the root, same for us
                if (cur().kind != Tok::Ident)
                    fail("Syntax error: no viable alternative at input '." + describe(cur()) + "'");
            }
            size_t identAt = cur().offset;
            std::string name = take().text;
            if (kReserved.count(name))
                failAt("Syntax error: reserved identifier: " + name, identAt);
            if (cur().kind == Tok::LParen) {
                take();
                std::vector<NodePtr> args;
                exprList(args, Tok::RParen, "')'");
                return globalCall(std::move(name), identAt, std::move(args));
            }
            if (cur().kind == Tok::LBrace)
                fail("Syntax error: message construction is not supported");
            auto n = makeNode(NodeKind::Ident, identAt);
            n->name = std::move(name);
            return n;
        }
        default:
            fail("Syntax error: mismatched input '" + describe(t) + "' expecting an expression");
        }
    }

    NodePtr globalCall(std::string name, size_t at, std::vector<NodePtr> args)
    {
        if (name == "has" && args.size() == 1) {
            Node* arg = args[0].get();
            if (arg->kind != NodeKind::Select)
                failAt("invalid argument to has() macro", arg->offset);
            auto n = makeNode(NodeKind::Has, at);
            n->name = arg->name;
            n->args.push_back(std::move(arg->args[0]));
            return n;
        }
        return makeCall(std::move(name), at, std::move(args));
    }

    std::string iterVar(const NodePtr& n)
    {
        if (n->kind != NodeKind::Ident)
            failAt("argument must be a simple name", n->offset);
        return n->name;
    }

    NodePtr comprehension(Macro m, size_t at, std::vector<NodePtr>& args, int vars)
    {
        auto n = makeNode(NodeKind::Comprehension, at);
        n->macro = m;
        n->name = iterVar(args[1]);
        if (vars == 2)
            n->name2 = iterVar(args[2]);
        n->args.push_back(std::move(args[0]));
        for (size_t i = size_t(1 + vars); i < args.size(); ++i)
            n->args.push_back(std::move(args[i]));
        return n;
    }

    NodePtr receiverCall(const std::string& name, size_t at, std::vector<NodePtr> args)
    {
        size_t n = args.size() - 1; // arguments besides the receiver
        if (name == "bind" && n == 3 && args[0]->kind == NodeKind::Ident && args[0]->name == "cel") {
            auto b = makeNode(NodeKind::Bind, at);
            b->name = iterVar(args[1]);
            b->args.push_back(std::move(args[2]));
            b->args.push_back(std::move(args[3]));
            return b;
        }
        if ((name == "all" || name == "exists" || name == "exists_one" || name == "existsOne")
            && (n == 2 || n == 3)) {
            Macro m = name == "all" ? Macro::All : (name == "exists" ? Macro::Exists : Macro::ExistsOne);
            if (name == "existsOne" && n == 2)
                return finishCall(name, at, std::move(args));
            return comprehension(m, at, args, int(n) - 1);
        }
        if (name == "map" && (n == 2 || n == 3)) {
            auto c = comprehension(n == 2 ? Macro::Map : Macro::MapFilter, at, args, 1);
            c->filtered = n == 3;
            return c;
        }
        if (name == "filter" && n == 2)
            return comprehension(Macro::Filter, at, args, 1);
        if (name == "sortBy" && n == 2) {
            // cel-go's sortBy macro takes a list literal, identifier, comprehension, call or
            // selection: a constant or a map literal as target is a macro error.
            if (args[0]->kind == NodeKind::Literal || args[0]->kind == NodeKind::Map)
                failAt("sortBy can only be applied to a list, identifier, comprehension, call or select "
                       "expression",
                    args[0]->offset);
            return comprehension(Macro::SortBy, at, args, 1);
        }
        if ((name == "optMap" || name == "optFlatMap") && n == 2)
            return comprehension(name == "optMap" ? Macro::OptMap : Macro::OptFlatMap, at, args, 1);
        if ((name == "transformList" || name == "transformMap" || name == "transformMapEntry")
            && (n == 3 || n == 4)) {
            Macro m = name == "transformList"
                ? Macro::TransformList
                : (name == "transformMap" ? Macro::TransformMap : Macro::TransformMapEntry);
            auto c = comprehension(m, at, args, 2);
            c->filtered = n == 4;
            return c;
        }
        return finishCall(name, at, std::move(args));
    }

    static NodePtr finishCall(const std::string& name, size_t at, std::vector<NodePtr> args)
    {
        auto c = makeCall(name, at, std::move(args));
        c->hasReceiver = true;
        return c;
    }
};

} // namespace

NodePtr parseExpression(std::string_view source, ParseError* error)
{
    std::vector<Token> tokens = tokenize(source);
    // A lexical error is reported as such, wherever the parser would have stopped.
    if (!tokens.empty() && tokens.back().kind == Tok::Error) {
        if (error) {
            error->message = tokens.back().text;
            error->offset = tokens.back().offset;
        }
        return nullptr;
    }
    try {
        return Parser(std::move(tokens)).parseAll();
    } catch (const ParseFailure& f) {
        if (error) {
            error->message = f.message;
            error->offset = f.offset;
        }
        return nullptr;
    }
}

size_t countNodes(const Node& n)
{
    size_t total = 1;
    for (const auto& a : n.args)
        total += a ? countNodes(*a) : 0;
    return total;
}

} // namespace drasim::cel
