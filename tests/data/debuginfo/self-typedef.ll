; A unit (struct box: box_new, box_set, box_get, box_free) whose debug info
; LLVM's verifier accepts though no C type is like it: the typedefs box and
; count are each their own base type, and box_set's count v a variable
; whose size LLVM's passes look for.  tests/e2e/bad_input.py analyses it.
source_filename = "box.c"
target triple = "x86_64-pc-linux-gnu"

%struct.box = type { i32 }

define %struct.box* @box_new() !dbg !10 {
entry:
  %p = call i8* @calloc(i64 1, i64 4), !dbg !24
  %b = bitcast i8* %p to %struct.box*, !dbg !24
  ret %struct.box* %b, !dbg !24
}

define void @box_set(%struct.box* %b, i32 %v) !dbg !12 {
entry:
  %b.addr = alloca %struct.box*
  %v.addr = alloca i32
  store %struct.box* %b, %struct.box** %b.addr
  call void @llvm.dbg.declare(metadata %struct.box** %b.addr, metadata !20, metadata !DIExpression()), !dbg !25
  store i32 %v, i32* %v.addr
  call void @llvm.dbg.declare(metadata i32* %v.addr, metadata !21, metadata !DIExpression()), !dbg !25
  %0 = load %struct.box*, %struct.box** %b.addr, !dbg !25
  %1 = load i32, i32* %v.addr, !dbg !25
  %f = getelementptr %struct.box, %struct.box* %0, i32 0, i32 0, !dbg !25
  store i32 %1, i32* %f, !dbg !25
  ret void, !dbg !25
}

define i32 @box_get(%struct.box* %b) !dbg !14 {
entry:
  call void @llvm.dbg.value(metadata %struct.box* %b, metadata !22, metadata !DIExpression()), !dbg !26
  %f = getelementptr %struct.box, %struct.box* %b, i32 0, i32 0, !dbg !26
  %v = load i32, i32* %f, !dbg !26
  ret i32 %v, !dbg !26
}

define void @box_free(%struct.box* %b) !dbg !18 {
entry:
  call void @llvm.dbg.value(metadata %struct.box* %b, metadata !23, metadata !DIExpression()), !dbg !27
  %p = bitcast %struct.box* %b to i8*, !dbg !27
  call void @free(i8* %p), !dbg !27
  ret void, !dbg !27
}

declare i8* @calloc(i64, i64)
declare void @free(i8*)
declare void @llvm.dbg.declare(metadata, metadata, metadata)
declare void @llvm.dbg.value(metadata, metadata, metadata)

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}

!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "hand-written", emissionKind: FullDebug)
!1 = !DIFile(filename: "box.c", directory: "/tmp")
!2 = !{i32 7, !"Dwarf Version", i32 5}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!5 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "box", file: !1, line: 1, size: 32, elements: !6)
!6 = !{!7}
!7 = !DIDerivedType(tag: DW_TAG_member, name: "v", scope: !5, file: !1, line: 1, baseType: !4, size: 32)
!8 = !DIDerivedType(tag: DW_TAG_typedef, name: "box", file: !1, line: 1, baseType: !8)
!9 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !8, size: 64)
!10 = distinct !DISubprogram(name: "box_new", scope: !1, file: !1, line: 2, type: !11, spFlags: DISPFlagDefinition, unit: !0)
!11 = !DISubroutineType(types: !{!9})
!12 = distinct !DISubprogram(name: "box_set", scope: !1, file: !1, line: 3, type: !13, spFlags: DISPFlagDefinition, unit: !0)
!13 = !DISubroutineType(types: !{null, !9, !28})
!14 = distinct !DISubprogram(name: "box_get", scope: !1, file: !1, line: 4, type: !15, spFlags: DISPFlagDefinition, unit: !0)
!15 = !DISubroutineType(types: !{!4, !16})
!16 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !17, size: 64)
!17 = !DIDerivedType(tag: DW_TAG_const_type, baseType: !8)
!18 = distinct !DISubprogram(name: "box_free", scope: !1, file: !1, line: 5, type: !19, spFlags: DISPFlagDefinition, unit: !0)
!19 = !DISubroutineType(types: !{null, !9})
!20 = !DILocalVariable(name: "b", arg: 1, scope: !12, file: !1, line: 3, type: !9)
!21 = !DILocalVariable(name: "v", arg: 2, scope: !12, file: !1, line: 3, type: !28)
!22 = !DILocalVariable(name: "b", arg: 1, scope: !14, file: !1, line: 4, type: !16)
!23 = !DILocalVariable(name: "b", arg: 1, scope: !18, file: !1, line: 5, type: !9)
!24 = !DILocation(line: 2, scope: !10)
!25 = !DILocation(line: 3, scope: !12)
!26 = !DILocation(line: 4, scope: !14)
!27 = !DILocation(line: 5, scope: !18)
!28 = !DIDerivedType(tag: DW_TAG_typedef, name: "count", file: !1, line: 1, baseType: !28)
