// plugin.cpp - registers bcwalk's analysis as the opt pass
// `bcwalk-analyze` (opt -load-pass-plugin=libbcwalk_opt.so
// -passes=bcwalk-analyze); registration only, the work is plugin.c.
#include "plugin.h"

#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Passes/PassPlugin.h>

using namespace llvm;

namespace
{
struct BcwalkAnalyze : PassInfoMixin<BcwalkAnalyze> {
    PreservedAnalyses run(Module &m, ModuleAnalysisManager &)
    {
        bcw__plugin_run(wrap(&m));
        return PreservedAnalyses::all();
    }
};
} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo()
{
    return {LLVM_PLUGIN_API_VERSION, "bcwalk", BCW_VERSION, [](PassBuilder &pb) {
                pb.registerPipelineParsingCallback(
                    [](StringRef name, ModulePassManager &mpm,
                       ArrayRef<PassBuilder::PipelineElement>) {
                        if (name != "bcwalk-analyze")
                            return false;
                        mpm.addPass(BcwalkAnalyze());
                        return true;
                    });
            }};
}
