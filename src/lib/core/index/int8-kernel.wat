;; The int8 dot-product kernel of the vector index (src/lib/core/index/int8-kernel.ts).
;; WebAssembly SIMD, the 128-bit baseline only (no relaxed SIMD): Chromium, Firefox, Safari 16.4+
;; and Node 20 run it. int8-kernel-bytes.ts holds this file assembled by `npm run build:kernel`
;; (wabt); tests/unit/index/int8-kernel.test.ts assembles it again and checks that the bytes are
;; equal, so the binary that runs is the source read here.
;;
;; Memory (byte offsets chosen by the caller, int8-kernel.ts):
;;   q16   dims x i16: the query's int8 values widened to 16 bits; dims is a multiple of 16
;;   data  rows x dims x i8, row-major
;;   ids   count x i32: row numbers (scanRows)
;;   out   rows (or count) x i32: the dot products
;; Sums are exact: |i8 x i8| <= 16,384 and each i32 lane adds dims / 4 of them, so rows of up to
;; 131,072 dimensions cannot overflow.
(module
  (memory (export "memory") 1)

  ;; dot(query, row) over dims int8 values.
  (func $dot (param $q i32) (param $row i32) (param $dims i32) (result i32)
    (local $end i32) (local $acc v128) (local $a v128)
    (local.set $end (i32.add (local.get $row) (local.get $dims)))
    (local.set $acc (v128.const i32x4 0 0 0 0))
    (loop $chunk
      (local.set $a (v128.load (local.get $row)))
      ;; 16 values: the low and the high 8 widened to i16, multiplied with the query's 16 widened
      ;; values and added in pairs into the four i32 lanes.
      (local.set $acc
        (i32x4.add (local.get $acc)
          (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $a)) (v128.load (local.get $q)))))
      (local.set $acc
        (i32x4.add (local.get $acc)
          (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $a)) (v128.load offset=16 (local.get $q)))))
      (local.set $row (i32.add (local.get $row) (i32.const 16)))
      (local.set $q (i32.add (local.get $q) (i32.const 32)))
      (br_if $chunk (i32.lt_u (local.get $row) (local.get $end))))
    (i32.add
      (i32.add (i32x4.extract_lane 0 (local.get $acc)) (i32x4.extract_lane 1 (local.get $acc)))
      (i32.add (i32x4.extract_lane 2 (local.get $acc)) (i32x4.extract_lane 3 (local.get $acc)))))

  ;; out[r] = dot(query, data[r]) for r in [0, rows).
  (func (export "scan") (param $q i32) (param $data i32) (param $rows i32) (param $dims i32) (param $out i32)
    (local $end i32)
    (local.set $end (i32.add (local.get $out) (i32.shl (local.get $rows) (i32.const 2))))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $out) (local.get $end)))
        (i32.store (local.get $out) (call $dot (local.get $q) (local.get $data) (local.get $dims)))
        (local.set $data (i32.add (local.get $data) (local.get $dims)))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (br $next))))

  ;; out[j] = dot(query, data[ids[j]]) for j in [0, count).
  (func (export "scanRows") (param $q i32) (param $data i32) (param $ids i32) (param $count i32) (param $dims i32) (param $out i32)
    (local $end i32)
    (local.set $end (i32.add (local.get $out) (i32.shl (local.get $count) (i32.const 2))))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $out) (local.get $end)))
        (i32.store (local.get $out)
          (call $dot (local.get $q)
            (i32.add (local.get $data) (i32.mul (i32.load (local.get $ids)) (local.get $dims)))
            (local.get $dims)))
        (local.set $ids (i32.add (local.get $ids) (i32.const 4)))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (br $next))))

  ;; Sparse queries over a column copy (int8-columns.ts): out[64 b + i] = sum over the query's
  ;; non-zero dimensions j of q_j x column_j[64 b + i], for blocks b in [0, blocks). `pairs` holds
  ;; `count` pairs (i32 byte offset of the dimension's column from `data`, i32 query value); block b
  ;; of a column starts 64 b bytes after the column's start. The 64 rows' sums stay in 16 i32x4
  ;; lanes while the dimensions are read; each product is exact in 32 bits (|i8 x i8| <= 16,384).
  (func (export "scanSparse") (param $pairs i32) (param $count i32) (param $data i32) (param $blocks i32) (param $out i32)
    (local $end i32) (local $p i32) (local $pend i32) (local $at i32) (local $v v128) (local $q v128) (local $lo v128) (local $hi v128)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128) (local $a4 v128) (local $a5 v128) (local $a6 v128) (local $a7 v128) (local $a8 v128) (local $a9 v128) (local $a10 v128) (local $a11 v128) (local $a12 v128) (local $a13 v128) (local $a14 v128) (local $a15 v128)
    (local.set $end (i32.add (local.get $out) (i32.shl (local.get $blocks) (i32.const 8))))
    (local.set $pend (i32.add (local.get $pairs) (i32.shl (local.get $count) (i32.const 3))))
    (block $done
      (loop $block
        (br_if $done (i32.ge_u (local.get $out) (local.get $end)))
        (local.set $a0 (v128.const i32x4 0 0 0 0))
        (local.set $a1 (v128.const i32x4 0 0 0 0))
        (local.set $a2 (v128.const i32x4 0 0 0 0))
        (local.set $a3 (v128.const i32x4 0 0 0 0))
        (local.set $a4 (v128.const i32x4 0 0 0 0))
        (local.set $a5 (v128.const i32x4 0 0 0 0))
        (local.set $a6 (v128.const i32x4 0 0 0 0))
        (local.set $a7 (v128.const i32x4 0 0 0 0))
        (local.set $a8 (v128.const i32x4 0 0 0 0))
        (local.set $a9 (v128.const i32x4 0 0 0 0))
        (local.set $a10 (v128.const i32x4 0 0 0 0))
        (local.set $a11 (v128.const i32x4 0 0 0 0))
        (local.set $a12 (v128.const i32x4 0 0 0 0))
        (local.set $a13 (v128.const i32x4 0 0 0 0))
        (local.set $a14 (v128.const i32x4 0 0 0 0))
        (local.set $a15 (v128.const i32x4 0 0 0 0))
        (local.set $p (local.get $pairs))
        (block $dimsdone
          (loop $dim
            (br_if $dimsdone (i32.ge_u (local.get $p) (local.get $pend)))
            (local.set $at (i32.add (local.get $data) (i32.load (local.get $p))))
            (local.set $q (i16x8.splat (i32.load offset=4 (local.get $p))))
            (local.set $v (v128.load offset=0 (local.get $at)))
            (local.set $lo (i16x8.extend_low_i8x16_s (local.get $v)))
            (local.set $hi (i16x8.extend_high_i8x16_s (local.get $v)))
            (local.set $a0 (i32x4.add (local.get $a0) (i32x4.extmul_low_i16x8_s (local.get $lo) (local.get $q))))
            (local.set $a1 (i32x4.add (local.get $a1) (i32x4.extmul_high_i16x8_s (local.get $lo) (local.get $q))))
            (local.set $a2 (i32x4.add (local.get $a2) (i32x4.extmul_low_i16x8_s (local.get $hi) (local.get $q))))
            (local.set $a3 (i32x4.add (local.get $a3) (i32x4.extmul_high_i16x8_s (local.get $hi) (local.get $q))))
            (local.set $v (v128.load offset=16 (local.get $at)))
            (local.set $lo (i16x8.extend_low_i8x16_s (local.get $v)))
            (local.set $hi (i16x8.extend_high_i8x16_s (local.get $v)))
            (local.set $a4 (i32x4.add (local.get $a4) (i32x4.extmul_low_i16x8_s (local.get $lo) (local.get $q))))
            (local.set $a5 (i32x4.add (local.get $a5) (i32x4.extmul_high_i16x8_s (local.get $lo) (local.get $q))))
            (local.set $a6 (i32x4.add (local.get $a6) (i32x4.extmul_low_i16x8_s (local.get $hi) (local.get $q))))
            (local.set $a7 (i32x4.add (local.get $a7) (i32x4.extmul_high_i16x8_s (local.get $hi) (local.get $q))))
            (local.set $v (v128.load offset=32 (local.get $at)))
            (local.set $lo (i16x8.extend_low_i8x16_s (local.get $v)))
            (local.set $hi (i16x8.extend_high_i8x16_s (local.get $v)))
            (local.set $a8 (i32x4.add (local.get $a8) (i32x4.extmul_low_i16x8_s (local.get $lo) (local.get $q))))
            (local.set $a9 (i32x4.add (local.get $a9) (i32x4.extmul_high_i16x8_s (local.get $lo) (local.get $q))))
            (local.set $a10 (i32x4.add (local.get $a10) (i32x4.extmul_low_i16x8_s (local.get $hi) (local.get $q))))
            (local.set $a11 (i32x4.add (local.get $a11) (i32x4.extmul_high_i16x8_s (local.get $hi) (local.get $q))))
            (local.set $v (v128.load offset=48 (local.get $at)))
            (local.set $lo (i16x8.extend_low_i8x16_s (local.get $v)))
            (local.set $hi (i16x8.extend_high_i8x16_s (local.get $v)))
            (local.set $a12 (i32x4.add (local.get $a12) (i32x4.extmul_low_i16x8_s (local.get $lo) (local.get $q))))
            (local.set $a13 (i32x4.add (local.get $a13) (i32x4.extmul_high_i16x8_s (local.get $lo) (local.get $q))))
            (local.set $a14 (i32x4.add (local.get $a14) (i32x4.extmul_low_i16x8_s (local.get $hi) (local.get $q))))
            (local.set $a15 (i32x4.add (local.get $a15) (i32x4.extmul_high_i16x8_s (local.get $hi) (local.get $q))))
            (local.set $p (i32.add (local.get $p) (i32.const 8)))
            (br $dim)))
        (v128.store offset=0 (local.get $out) (local.get $a0))
        (v128.store offset=16 (local.get $out) (local.get $a1))
        (v128.store offset=32 (local.get $out) (local.get $a2))
        (v128.store offset=48 (local.get $out) (local.get $a3))
        (v128.store offset=64 (local.get $out) (local.get $a4))
        (v128.store offset=80 (local.get $out) (local.get $a5))
        (v128.store offset=96 (local.get $out) (local.get $a6))
        (v128.store offset=112 (local.get $out) (local.get $a7))
        (v128.store offset=128 (local.get $out) (local.get $a8))
        (v128.store offset=144 (local.get $out) (local.get $a9))
        (v128.store offset=160 (local.get $out) (local.get $a10))
        (v128.store offset=176 (local.get $out) (local.get $a11))
        (v128.store offset=192 (local.get $out) (local.get $a12))
        (v128.store offset=208 (local.get $out) (local.get $a13))
        (v128.store offset=224 (local.get $out) (local.get $a14))
        (v128.store offset=240 (local.get $out) (local.get $a15))
        (local.set $out (i32.add (local.get $out) (i32.const 256)))
        (local.set $data (i32.add (local.get $data) (i32.const 64)))
        (br $block))))
)
