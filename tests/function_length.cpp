// SPDX-License-Identifier: Apache-2.0
// Fails when a function in the given source folders is longer than the limit (150 lines: a
// function a reader can hold in mind), and, when class limits are given, when a class or struct
// body is longer than --class-lines or declares more than --class-functions member functions (a
// class with one job). A small brace-depth scanner, not a compiler: comments,
// strings, character literals and preprocessor lines are blanked first; then every `{` at
// namespace or class scope is classified as a namespace, a class, a data initializer or a
// function body from the declaration text before it. Lambdas and blocks count toward the function
// that holds them. Brace initializers after `=` inside a function (data tables) are left out of
// its length.
//
//   function_length [--limit N] [--class-lines N] [--class-functions N] [--list] ROOT DIR...
//       (DIR relative to ROOT, e.g. core app ui)
//
// --list prints every function found with its length (to check what the scanner sees), and with
// class limits every class with its lines and member functions. Member functions are those
// defined in the body and those declared there (a declaration with a parameter list before any
// `=`). Prints each offender as `file:line: name is N lines (limit L)` or `file:line: class name
// has N member functions (limit M)`, then the longest function (and the largest class).

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

struct Function
{
    std::string file;
    int line = 0;
    std::string name;
    int length = 0;
};

struct Class
{
    std::string file;
    int line = 0;
    std::string name;
    int length = 0; ///< lines from its declaration to its closing brace
    int functions = 0; ///< member functions defined or declared in its body
};

bool isIdent(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

/// The text with comments, string and character literals and preprocessor lines replaced by
/// spaces, newlines kept (so line numbers stay).
std::string blankNonCode(const std::string& in)
{
    std::string out = in;
    size_t i = 0;
    const size_t n = in.size();
    bool lineStart = true;
    auto blank = [&](size_t from, size_t to) {
        for (size_t k = from; k < to && k < n; ++k)
            if (out[k] != '\n')
                out[k] = ' ';
    };
    while (i < n) {
        const char c = in[i];
        if (c == '\n') {
            lineStart = true;
            ++i;
            continue;
        }
        if (lineStart && c == '#') { // a directive, with its continuation lines
            size_t j = i;
            while (j < n && !(in[j] == '\n' && in[j - 1] != '\\'))
                ++j;
            blank(i, j);
            i = j;
            continue;
        }
        if (!std::isspace(static_cast<unsigned char>(c)))
            lineStart = false;
        if (c == '/' && i + 1 < n && in[i + 1] == '/') {
            size_t j = in.find('\n', i);
            j = j == std::string::npos ? n : j;
            blank(i, j);
            i = j;
        } else if (c == '/' && i + 1 < n && in[i + 1] == '*') {
            size_t j = in.find("*/", i + 2);
            j = j == std::string::npos ? n : j + 2;
            blank(i, j);
            i = j;
        } else if (c == 'R' && i + 1 < n && in[i + 1] == '"'
            && (i == 0 || !isIdent(in[i - 1]) || in[i - 1] == 'u' || in[i - 1] == '8' || in[i - 1] == 'L'
                || in[i - 1] == 'U')) {
            const size_t open = in.find('(', i + 2);
            if (open == std::string::npos) {
                ++i;
                continue;
            }
            std::string close(1, ')'); // the delimiter between ')' and '"'
            close.append(in, i + 2, open - i - 2);
            close += '"';
            size_t j = in.find(close, open);
            j = j == std::string::npos ? n : j + close.size();
            blank(i, j);
            i = j;
        } else if (c == '"'
            || (c == '\''
                && !(i > 0 && std::isxdigit(static_cast<unsigned char>(in[i - 1])) && i + 1 < n
                    && std::isxdigit(static_cast<unsigned char>(in[i + 1]))))) {
            size_t j = i + 1;
            while (j < n && in[j] != c && in[j] != '\n')
                j += in[j] == '\\' ? 2 : 1;
            blank(i, j + 1);
            i = j + 1;
        } else {
            ++i;
        }
    }
    return out;
}

std::string trim(const std::string& s)
{
    const size_t a = s.find_first_not_of(" \t\n");
    if (a == std::string::npos)
        return {};
    const size_t b = s.find_last_not_of(" \t\n");
    return s.substr(a, b - a + 1);
}

bool startsWithWord(const std::string& s, const char* word)
{
    const size_t len = std::char_traits<char>::length(word);
    return s.compare(0, len, word) == 0 && (s.size() == len || !isIdent(s[len]));
}

bool containsWord(const std::string& s, const char* word)
{
    const size_t len = std::char_traits<char>::length(word);
    for (size_t at = s.find(word); at != std::string::npos; at = s.find(word, at + 1))
        if ((at == 0 || !isIdent(s[at - 1])) && (at + len == s.size() || !isIdent(s[at + len])))
            return true;
    return false;
}

/// `template <...>` prefixes removed.
std::string withoutTemplateHead(std::string s)
{
    while (startsWithWord(s, "template")) {
        size_t i = s.find('<');
        if (i == std::string::npos)
            break;
        int depth = 0;
        for (; i < s.size(); ++i) {
            depth += s[i] == '<' ? 1 : s[i] == '>' ? -1 : 0;
            if (depth == 0)
                break;
        }
        s = trim(s.substr(std::min(i + 1, s.size())));
    }
    return s;
}

enum class Scope { Namespace, Class, Data, Function, Inner };

/// What a `{` at namespace or class scope opens, from the declaration text before it.
Scope classify(const std::string& declaration)
{
    const std::string d = withoutTemplateHead(trim(declaration));
    if (startsWithWord(d, "namespace") || startsWithWord(d, "extern") || containsWord(d, "namespace"))
        return Scope::Namespace;
    if (startsWithWord(d, "enum") || (startsWithWord(d, "typedef") && d.find('(') == std::string::npos))
        return Scope::Data;
    const size_t paren = d.find('(');
    for (const char* kw : { "class", "struct", "union" })
        if ((startsWithWord(d, kw) || containsWord(d.substr(0, paren), kw))
            && d.find('=') == std::string::npos && (paren == std::string::npos || d.find(kw) < paren))
            return Scope::Class;
    if (d.empty())
        return Scope::Data;
    const char last = d.back();
    if (last == ')' || last == '}')
        return Scope::Function; // `f(...)`, `Foo(...) : m_a(a), m_b{b}`
    if (paren != std::string::npos && last != '=' && last != ',' && last != '(') {
        // `f() const`, `f() override`, `auto f() -> T`, `f() noexcept`
        const size_t close = d.rfind(')');
        const std::string tail = close == std::string::npos ? std::string() : d.substr(close + 1);
        for (const char* kw : { "const", "override", "final", "noexcept", "mutable", "->", "&" })
            if (tail.find(kw) != std::string::npos)
                return Scope::Function;
    }
    return Scope::Data;
}

/// The function's name: the qualified identifier before the first `(` of its declaration.
std::string nameOf(const std::string& declaration)
{
    const std::string d = withoutTemplateHead(trim(declaration));
    size_t paren = d.find('(');
    if (d.compare(0, 1, "[") == 0 || d.find("= [") != std::string::npos)
        return "lambda " + trim(d.substr(0, d.find('=')));
    if (paren == std::string::npos)
        return d;
    if (d.compare(paren > 8 ? paren - 8 : 0, 8, "operator") == 0)
        paren = d.find('(', paren + 1);
    size_t end = paren;
    while (end > 0 && d[end - 1] == ' ')
        --end;
    size_t begin = end;
    while (begin > 0 && (isIdent(d[begin - 1]) || d[begin - 1] == ':' || d[begin - 1] == '~'))
        --begin;
    return d.substr(begin, end - begin);
}

/// The class's name from its declaration: the (qualified) identifier after class/struct/union.
std::string classNameOf(const std::string& declaration)
{
    const std::string d = withoutTemplateHead(trim(declaration));
    for (const char* kw : { "class", "struct", "union" }) {
        const size_t len = std::char_traits<char>::length(kw);
        for (size_t at = d.find(kw); at != std::string::npos; at = d.find(kw, at + 1)) {
            if ((at > 0 && isIdent(d[at - 1])) || (at + len < d.size() && isIdent(d[at + len])))
                continue;
            size_t b = d.find_first_not_of(' ', at + len);
            size_t e = b;
            while (e < d.size() && (isIdent(d[e]) || (d[e] == ':' && e + 1 < d.size() && d[e + 1] == ':')))
                e += d[e] == ':' ? 2 : 1;
            return e > b ? d.substr(b, e - b) : std::string("(anonymous)");
        }
    }
    return "(anonymous)";
}

/// A member declaration ended by `;` declares a function: it has a parameter list (a `(` outside
/// template arguments) before any `=`.
bool declaresFunction(const std::string& declaration)
{
    const std::string d = trim(declaration);
    if (startsWithWord(d, "using") || startsWithWord(d, "friend"))
        return false;
    if (containsWord(d, "operator")) // `operator==(...) = default`: its `=` is part of the name
        return true;
    int angle = 0;
    for (char c : declaration) {
        if (c == '=')
            return false;
        angle += c == '<' ? 1 : c == '>' ? -1 : 0;
        if (c == '(' && angle <= 0)
            return true;
    }
    return false;
}

/// Every function of one source file with its length in lines (data tables after `=` left out),
/// and every class with its length and member-function count.
bool scanFile(const std::string& path, const std::string& shownPath, std::vector<Function>& out,
    std::vector<Class>& classes, std::string& error)
{
    std::ifstream f(path, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    const std::string code = blankNonCode(ss.str());

    struct Open
    {
        Scope scope;
        int line;
        std::string declaration; ///< Function: its text
        int declLine = 0; ///< Function: where its declaration starts
        int dataLines = 0; ///< Function: lines of its data tables
        int functions = 0; ///< Class: member functions seen so far
    };
    std::vector<Open> stack;
    std::string declaration; // since the last `;`, `{` or `}` at namespace or class scope
    int declLine = 0;
    int line = 1;
    auto inFunction = [&] {
        return std::any_of(
            stack.begin(), stack.end(), [](const Open& o) { return o.scope == Scope::Function; });
    };
    auto functionIndex = [&] {
        for (size_t i = 0; i < stack.size(); ++i)
            if (stack[i].scope == Scope::Function)
                return i;
        return stack.size();
    };
    char prev = ' '; // the last character that is not blank
    for (size_t i = 0; i < code.size(); ++i) {
        const char c = code[i];
        if (c == '\n')
            ++line;
        if (inFunction()) {
            if (c == '{') {
                // A data table: `= {` directly in the function (nested ones are inside it).
                const bool table = prev == '=' && stack.back().scope == Scope::Function;
                stack.push_back({ table ? Scope::Data : Scope::Inner, line, {}, 0, 0, 0 });
            } else if (c == '}') {
                const Open o = stack.back();
                stack.pop_back();
                if (o.scope == Scope::Data)
                    stack[functionIndex()].dataLines += line - o.line + 1;
                if (o.scope == Scope::Function) {
                    out.push_back({ shownPath, o.declLine, nameOf(o.declaration),
                        line - o.declLine + 1 - o.dataLines });
                    declaration.clear();
                }
            }
        } else if (c == '{') {
            const Scope s = classify(declaration);
            if (s == Scope::Function && !stack.empty() && stack.back().scope == Scope::Class)
                stack.back().functions++;
            stack.push_back({ s, line, declaration, declLine, 0, 0 });
            if (s != Scope::Data)
                declaration.clear();
        } else if (c == '}') {
            if (stack.empty()) {
                error = shownPath + ":" + std::to_string(line) + ": unbalanced '}'";
                return false;
            }
            const Open o = stack.back();
            const Scope s = o.scope;
            stack.pop_back();
            if (s == Scope::Class)
                classes.push_back({ shownPath, o.declLine, classNameOf(o.declaration), line - o.declLine + 1,
                    o.functions });
            if (s == Scope::Data && !stack.empty() && stack.back().scope == Scope::Data)
                ; // nested initializer: the outer one goes on
            else if (s == Scope::Data)
                declaration += "{}";
            else
                declaration.clear();
        } else if (c == ';' && (stack.empty() || stack.back().scope != Scope::Data)) {
            if (!stack.empty() && stack.back().scope == Scope::Class && declaresFunction(declaration))
                stack.back().functions++;
            declaration.clear();
        } else if (c == ':' && (stack.empty() || stack.back().scope == Scope::Class)
            && !(i + 1 < code.size() && code[i + 1] == ':') && prev != ':') {
            // `public:`, `private Q_SLOTS:`, `signals:` end nothing but start the next declaration
            const std::string d = trim(declaration);
            for (const char* kw :
                { "public", "private", "protected", "slots", "Q_SLOTS", "signals", "Q_SIGNALS" })
                if (d.size() >= std::char_traits<char>::length(kw)
                    && d.compare(d.size() - std::char_traits<char>::length(kw), std::string::npos, kw) == 0) {
                    declaration.clear();
                    prev = c;
                    goto next;
                }
            declaration += c;
        } else if (!(stack.empty() ? false : stack.back().scope == Scope::Data)) {
            if (trim(declaration).empty() && !std::isspace(static_cast<unsigned char>(c)))
                declLine = line;
            declaration += c;
        }
        if (!std::isspace(static_cast<unsigned char>(c)))
            prev = c;
    next:;
    }
    if (!stack.empty()) {
        error = shownPath + ": unbalanced '{' opened on line " + std::to_string(stack.back().line);
        return false;
    }
    return true;
}

struct Options
{
    int limit = 150;
    int classLines = 0; ///< 0: classes are not checked
    int classFunctions = 0;
    bool list = false;
    std::vector<std::string> args; ///< ROOT DIR...
};

bool parseOptions(int argc, char** argv, Options& o)
{
    std::vector<std::string> args(argv + 1, argv + argc);
    size_t i = 0;
    for (; i < args.size(); ++i) {
        if (args[i] == "--list") {
            o.list = true;
            continue;
        }
        int* target = args[i] == "--limit"   ? &o.limit
            : args[i] == "--class-lines"     ? &o.classLines
            : args[i] == "--class-functions" ? &o.classFunctions
                                             : nullptr;
        if (!target || i + 1 >= args.size())
            break;
        *target = std::atoi(args[++i].c_str());
    }
    o.args.assign(args.begin() + long(i), args.end());
    return o.args.size() >= 2;
}

/// The source files under ROOT/DIR for each DIR (or the file ROOT/DIR), sorted.
bool collectFiles(const std::vector<std::string>& args, std::vector<std::string>& files)
{
    const fs::path root = args[0];
    auto isSource = [](const fs::path& p) {
        const std::string ext = p.extension().string();
        return ext == ".cpp" || ext == ".h" || ext == ".cc" || ext == ".hpp";
    };
    for (size_t i = 1; i < args.size(); ++i) {
        std::error_code ec;
        if (fs::is_regular_file(root / args[i], ec)) { // a single file
            files.push_back((root / args[i]).string());
            continue;
        }
        if (!fs::is_directory(root / args[i], ec)) {
            std::cout << (root / args[i]).string() << ": no such folder\n";
            return false;
        }
        for (const auto& e : fs::recursive_directory_iterator(root / args[i])) {
            if (e.is_regular_file() && isSource(e.path()))
                files.push_back(e.path().string());
        }
    }
    std::sort(files.begin(), files.end());
    return true;
}

/// Prints the functions over the limit and the longest one; returns the number of offenders.
int reportFunctions(std::vector<Function> functions, const Options& o, size_t fileCount)
{
    if (o.list)
        for (const auto& f : functions)
            std::cout << f.file << ":" << f.line << ": " << f.name << " " << f.length << "\n";
    std::stable_sort(functions.begin(), functions.end(),
        [](const Function& a, const Function& b) { return a.length > b.length; });
    int bad = 0;
    for (const auto& f : functions)
        if (f.length > o.limit) {
            std::cout << f.file << ":" << f.line << ": " << f.name << " is " << f.length << " lines (limit "
                      << o.limit << ")\n";
            ++bad;
        }
    const auto& top = functions.front();
    std::cout << functions.size() << " functions in " << fileCount << " files; the longest: " << top.file
              << ":" << top.line << ": " << top.name << ", " << top.length << " lines\n";
    return bad;
}

/// Prints the classes over either class limit and the largest one; returns the number of offenders.
int reportClasses(std::vector<Class> classes, const Options& o)
{
    if (classes.empty())
        return 0;
    if (o.list)
        for (const auto& c : classes)
            std::cout << c.file << ":" << c.line << ": class " << c.name << " " << c.length << " lines, "
                      << c.functions << " member functions\n";
    std::stable_sort(
        classes.begin(), classes.end(), [](const Class& a, const Class& b) { return a.length > b.length; });
    int bad = 0;
    for (const auto& c : classes) {
        const std::string where = c.file + ":" + std::to_string(c.line) + ": class " + c.name;
        if (o.classLines > 0 && c.length > o.classLines) {
            std::cout << where << " is " << c.length << " lines (limit " << o.classLines << ")\n";
            ++bad;
        }
        if (o.classFunctions > 0 && c.functions > o.classFunctions) {
            std::cout << where << " has " << c.functions << " member functions (limit " << o.classFunctions
                      << ")\n";
            ++bad;
        }
    }
    const auto most = std::max_element(classes.begin(), classes.end(),
        [](const Class& a, const Class& b) { return a.functions < b.functions; });
    std::cout << classes.size() << " classes; the longest: " << classes.front().file << ":"
              << classes.front().line << ": " << classes.front().name << ", " << classes.front().length
              << " lines; the most member functions: " << most->file << ":" << most->line << ": "
              << most->name << ", " << most->functions << "\n";
    return bad;
}

} // namespace

int main(int argc, char** argv)
{
    Options o;
    if (!parseOptions(argc, argv, o)) {
        std::cerr << "usage: function_length [--limit N] [--class-lines N] [--class-functions N] [--list] "
                     "ROOT DIR...\n";
        return 2;
    }
    std::vector<std::string> files;
    if (!collectFiles(o.args, files))
        return 1;
    const fs::path root = o.args[0];
    std::vector<Function> functions;
    std::vector<Class> classes;
    int bad = 0;
    for (const auto& file : files) {
        std::string error;
        const std::string shown = fs::relative(file, root).string();
        if (!scanFile(file, shown, functions, classes, error)) {
            std::cout << error << "\n";
            ++bad;
        }
    }
    if (functions.empty()) {
        std::cout << "no functions found under " << root.string() << "\n";
        return 1;
    }
    bad += reportFunctions(std::move(functions), o, files.size());
    if (o.classLines > 0 || o.classFunctions > 0)
        bad += reportClasses(std::move(classes), o);
    return bad == 0 ? 0 : 1;
}
