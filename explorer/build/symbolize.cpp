// symbolize.cpp - the thin C++ bridge over llvm::symbolize: the LLVM-C
// API has no symbolizer.  One symbolizer serves the process; it keeps
// each executable it opened, so the halts of a walk read its debug info
// once.
#include "symbolize.h"

#include <llvm/DebugInfo/Symbolize/Symbolize.h>
#include <llvm/Object/ObjectFile.h>

#include <cstring>
#include <string>

using namespace llvm;

static void copy(char *dst, size_t n, const std::string &s)
{
    if (n == 0)
        return;
    std::strncpy(dst, s.c_str(), n - 1);
    dst[n - 1] = '\0';
}

extern "C" int bcw__symbolize(const char *exe, uint64_t pc, char *func,
                              size_t nfunc, char *file, size_t nfile,
                              unsigned *line)
{
    static symbolize::LLVMSymbolizer *symbolizer;
    copy(func, nfunc, "");
    copy(file, nfile, "");
    *line = 0;
    if (exe == nullptr || pc == 0)
        return 0;
    if (symbolizer == nullptr) {
        symbolize::LLVMSymbolizer::Options opts;
        opts.Demangle = false;
        opts.PathStyle = DILineInfoSpecifier::FileLineInfoKind::BaseNameOnly;
        symbolizer = new symbolize::LLVMSymbolizer(opts);
    }
    auto frames = symbolizer->symbolizeInlinedCode(
        std::string(exe),
        object::SectionedAddress{pc, object::SectionedAddress::UndefSection});
    if (!frames) {
        consumeError(frames.takeError());
        return 0;
    }
    if (frames->getNumberOfFrames() == 0)
        return 0;
    const DILineInfo &f = frames->getFrame(0);
    if (f.FunctionName == DILineInfo::BadString || f.FunctionName.empty())
        return 0;
    copy(func, nfunc, f.FunctionName);
    if (f.FileName != DILineInfo::BadString) {
        copy(file, nfile, f.FileName);
        *line = f.Line;
    }
    return 1;
}
