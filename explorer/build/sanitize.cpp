// sanitize.cpp - the checks `explore --sanitize` compiles into a unit's
// bitcode (sanitize.h): C++ because the LLVM C API can neither read an
// instruction's nsw flag nor split a basic block.
//
// UBSan's checks are made by clang's front end, from the source; bitcode
// has lost what they need but for this: an `nsw` add, sub or mul is C's
// signed arithmetic, whose overflow is undefined; a shift's amount, a
// division's operands, a load's promised alignment and memcpy's pointers
// are all in the IR.  Each check branches, on the rare side, to a call
// of the runtime's bcw_rt_ub (explorer/runtime/rt_ub.c), which records
// what was about to happen, where, and ends the sequence.
#include "sanitize.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include <vector>

using namespace llvm;

namespace
{

struct Checker {
    Module &mod;
    FunctionCallee ub;
    IntegerType *i32, *i64;
    MDNode *rare;

    explicit Checker(Module &m)
        : mod(m), i32(Type::getInt32Ty(m.getContext())),
          i64(Type::getInt64Ty(m.getContext()))
    {
        LLVMContext &ctx = m.getContext();
        ub = m.getOrInsertFunction("bcw_rt_ub", Type::getVoidTy(ctx), i32, i64,
                                   i64, i32);
        rare = MDBuilder(ctx).createBranchWeights(1, 1u << 20);
    }

    // v as the runtime's 64-bit word: integers sign-extended (or cut),
    // pointers their address
    Value *word(IRBuilder<> &b, Value *v)
    {
        if (v->getType()->isPointerTy())
            return b.CreatePtrToInt(v, i64);
        return b.CreateSExtOrTrunc(v, i64);
    }

    // Before `at`: when `bad` holds, bcw_rt_ub(kind, a, b, bits), which
    // does not return.
    void check(Instruction *at, Value *bad, enum bcw_ub_kind kind, Value *a,
               Value *b, unsigned bits)
    {
        Instruction *then = SplitBlockAndInsertIfThen(bad, at, true, rare);
        IRBuilder<> ib(then);
        ib.SetCurrentDebugLocation(at->getDebugLoc());
        CallInst *call =
            ib.CreateCall(ub, {ConstantInt::get(i32, kind), word(ib, a),
                               word(ib, b), ConstantInt::get(i32, bits)});
        call->setDoesNotReturn();
        call->setDebugLoc(at->getDebugLoc());
    }

    void arithmetic(BinaryOperator *op)
    {
        Intrinsic::ID id;
        enum bcw_ub_kind kind;
        switch (op->getOpcode()) {
        case Instruction::Add:
            id = Intrinsic::sadd_with_overflow, kind = BCW_UB_ADD_OVERFLOW;
            break;
        case Instruction::Sub:
            id = Intrinsic::ssub_with_overflow, kind = BCW_UB_SUB_OVERFLOW;
            break;
        default:
            id = Intrinsic::smul_with_overflow, kind = BCW_UB_MUL_OVERFLOW;
            break;
        }
        IRBuilder<> b(op);
        Value *a0 = op->getOperand(0), *a1 = op->getOperand(1);
        Function *fn = Intrinsic::getDeclaration(&mod, id, {op->getType()});
        Value *bad = b.CreateExtractValue(b.CreateCall(fn, {a0, a1}), 1);
        check(op, bad, kind, a0, a1, op->getType()->getIntegerBitWidth());
    }

    void shift(BinaryOperator *op)
    {
        IRBuilder<> b(op);
        unsigned bits = op->getType()->getIntegerBitWidth();
        Value *n = op->getOperand(1);
        Value *bad = b.CreateICmpUGE(n, ConstantInt::get(op->getType(), bits));
        check(op, bad, BCW_UB_SHIFT, op->getOperand(0), n, bits);
    }

    void division(BinaryOperator *op, bool is_signed)
    {
        IRBuilder<> b(op);
        auto *t = cast<IntegerType>(op->getType());
        Value *x = op->getOperand(0), *y = op->getOperand(1);
        check(op, b.CreateICmpEQ(y, ConstantInt::get(t, 0)), BCW_UB_DIV_ZERO, x,
              y, t->getBitWidth());
        if (!is_signed)
            return;
        IRBuilder<> b2(op);
        Value *bad = b2.CreateAnd(
            b2.CreateICmpEQ(y, ConstantInt::getSigned(t, -1)),
            b2.CreateICmpEQ(x, ConstantInt::get(t, APInt::getSignedMinValue(
                                                       t->getBitWidth()))));
        check(op, bad, BCW_UB_DIV_OVERFLOW, x, y, t->getBitWidth());
    }

    void alignment(Instruction *in, Value *ptr, Align align)
    {
        uint64_t a = align.value();
        if (a <= 1)
            return;
        IRBuilder<> b(in);
        Value *low = b.CreateAnd(b.CreatePtrToInt(ptr, i64), a - 1);
        check(in, b.CreateICmpNE(low, ConstantInt::get(i64, 0)),
              BCW_UB_MISALIGNED, ptr, ConstantInt::get(i64, a), 64);
    }

    // memcpy, memmove, memset, memcmp as the source called them (or
    // clang's intrinsics for them): each pointer argument must not be
    // NULL, even with a length of 0 (C11 7.24.1p2)
    void pointers(CallBase *call)
    {
        Function *callee = call->getCalledFunction();
        if (callee == nullptr)
            return;
        StringRef name = callee->getName();
        unsigned n;
        if (isa<MemTransferInst>(call) || name == "memcpy" ||
            name == "memmove" || name == "memcmp" || name == "bcmp")
            n = 2;
        else if (isa<MemSetInst>(call) || name == "memset")
            n = 1;
        else
            return;
        for (unsigned k = 0; k < n && k < call->arg_size(); k++) {
            Value *p = call->getArgOperand(k);
            if (!p->getType()->isPointerTy())
                return;
            IRBuilder<> b(call);
            Value *bad = b.CreateIsNull(p);
            check(call, bad, BCW_UB_NULL_ARG, ConstantInt::get(i64, 0),
                  ConstantInt::get(i64, k), 64);
        }
    }

    // Every check of function f; `as_written`: f is as clang's front
    // end left it (-O0, optnone), so nsw, shifts and the memory calls
    // are the source's own; an optimiser may have computed values it
    // never uses, or turned a loop into a memcpy that is never run.
    void instrument(Function &f, bool as_written)
    {
        std::vector<Instruction *> todo;
        for (BasicBlock &bb : f)
            for (Instruction &in : bb)
                todo.push_back(&in);
        for (Instruction *in : todo) {
            if (auto *op = dyn_cast<BinaryOperator>(in)) {
                if (!op->getType()->isIntegerTy())
                    continue;
                switch (op->getOpcode()) {
                case Instruction::Add:
                case Instruction::Sub:
                case Instruction::Mul:
                    if (as_written && op->hasNoSignedWrap())
                        arithmetic(op);
                    break;
                case Instruction::Shl:
                case Instruction::LShr:
                case Instruction::AShr:
                    if (as_written)
                        shift(op);
                    break;
                case Instruction::SDiv:
                case Instruction::SRem:
                    division(op, true);
                    break;
                case Instruction::UDiv:
                case Instruction::URem:
                    division(op, false);
                    break;
                default:
                    break;
                }
            } else if (auto *ld = dyn_cast<LoadInst>(in)) {
                alignment(ld, ld->getPointerOperand(), ld->getAlign());
            } else if (auto *st = dyn_cast<StoreInst>(in)) {
                alignment(st, st->getPointerOperand(), st->getAlign());
            } else if (auto *call = dyn_cast<CallBase>(in)) {
                if (as_written)
                    pointers(call);
            }
        }
    }
};

} // namespace

unsigned bcw__sanitize_module(LLVMModuleRef m, unsigned sanitize)
{
    Module &mod = *unwrap(m);
    unsigned optimised = 0;
    std::vector<Function *> defined;
    for (Function &f : mod)
        if (!f.isDeclaration())
            defined.push_back(&f);
    Checker checker(mod);
    for (Function *f : defined) {
        // the unit's code in a section of its own, which the runtime
        // finds AddressSanitizer's frames in (its interceptors are in
        // the same executable)
        if (sanitize && !f->hasSection() && !f->hasComdat())
            f->setSection("bcw_unit_text");
        if (sanitize & BCW_SANITIZE_ADDRESS)
            f->addFnAttr(Attribute::SanitizeAddress);
        if (sanitize & BCW_SANITIZE_UNDEFINED) {
            bool as_written = f->hasFnAttribute(Attribute::OptimizeNone);
            optimised += !as_written;
            checker.instrument(*f, as_written);
        }
    }
    return optimised;
}
