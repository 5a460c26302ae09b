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
)
