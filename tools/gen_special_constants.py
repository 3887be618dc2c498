"""Prints the constants of aten_lite/special_math.h (needs mpmath; not part of the build).

usage: python tools/gen_special_constants.py

Each table is an exact mathematical value to 17 significant digits: Bernoulli numbers over
factorials (Euler-Maclaurin summation of the Hurwitz zeta function), (-1)^k zeta(k) / k (the
series of lgamma(1 + a)), Stirling's series, the Taylor coefficients of Temme's c0 and c1 at
eta = 0 (incomplete gamma functions of large order), and Ai, Ai' on the grid -10, -9.5, ..., 2.5
(the Airy function's Taylor series), and the Chebyshev coefficients of e^x sqrt(x) K_nu(x) in
t = 1/x on [1/18, 1/2], nu = 0, 1 (the modified Bessel functions of the second kind)."""
import mpmath as mp

mp.mp.dps = 40


def f(v):
    return mp.nstr(v, 17, min_fixed=0, max_fixed=0)


def temme_coefficients(n0=14, n1=12, r=mp.mpf("0.3"), m=64):
    """Taylor coefficients of c0(eta) = 1/(lam-1) - 1/eta and
    c1(eta) = 1/eta^3 - 1/(lam-1)^3 - 1/(lam-1)^2 - 1/(12 (lam-1)), where
    eta^2 / 2 = lam - 1 - log(lam), by Cauchy's integral on a circle of radius r."""
    def lam(eta):
        return mp.findroot(lambda v: v - 1 - mp.log(v) - eta ** 2 / 2, 1 + eta + eta ** 2 / 3)

    def c0(eta):
        return 1 / (lam(eta) - 1) - 1 / eta

    def c1(eta):
        u = lam(eta) - 1
        return 1 / eta ** 3 - 1 / u ** 3 - 1 / u ** 2 - 1 / (12 * u)

    out = []
    for fn, n in ((c0, n0), (c1, n1)):
        vals = [fn(r * mp.exp(2j * mp.pi * k / m)) for k in range(m)]
        out.append([mp.re(sum(vals[k] * mp.exp(-2j * mp.pi * k * j / m) for k in range(m)) / m / r ** j)
                    for j in range(n)])
    return out


def main():
    print("B_2k / (2k)!, k = 1..12:")
    print(", ".join(f(mp.bernoulli(2 * k) / mp.factorial(2 * k)) for k in range(1, 13)))
    print("(-1)^k zeta(k) / k, k = 2..26:")
    print(", ".join(f((-1) ** k * mp.zeta(k) / k) for k in range(2, 27)))
    print("Stirling B_2k / (2k (2k - 1)), k = 1..10:")
    print(", ".join(f(mp.bernoulli(2 * k) / (2 * k * (2 * k - 1))) for k in range(1, 11)))
    c0, c1 = temme_coefficients()
    print("Temme c0:", ", ".join(f(c) for c in c0))
    print("Temme c1:", ", ".join(f(c) for c in c1))
    print("Ai, Ai' on -10, -9.5, ..., 2.5:")
    for k in range(26):
        x = -10 + mp.mpf(k) / 2
        print(f"    {{{f(mp.airyai(x))}, {f(mp.airyai(x, derivative=1))}}}, /* {float(x)} */")
    print("Chebyshev coefficients of e^x sqrt(x) K_nu(x), t = 1/x in [1/18, 1/2], nu = 0, 1:")
    for row in k_chebyshev():
        print("    {" + ", ".join(f(c) for c in row) + "},")


def k_chebyshev(lo=2, hi=18, n=20):
    """The n-term Chebyshev expansions of e^x sqrt(x) K_nu(x) (nu = 0, 1) in t = 1/x over
    [1/hi, 1/lo], from the values at the Chebyshev nodes."""
    ta, tb = mp.mpf(1) / hi, mp.mpf(1) / lo
    rows = []
    for nu in (0, 1):
        vals = []
        for j in range(n):
            th = mp.pi * (j + mp.mpf(1) / 2) / n
            x = 2 / ((tb - ta) * mp.cos(th) + (ta + tb))
            vals.append(mp.besselk(nu, x) * mp.exp(x) * mp.sqrt(x))
        rows.append([2 * sum(vals[j] * mp.cos(k * mp.pi * (j + mp.mpf(1) / 2) / n) for j in range(n)) / n
                     for k in range(n)])
    return rows


if __name__ == "__main__":
    main()
