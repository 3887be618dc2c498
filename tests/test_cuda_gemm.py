

# ---- streams and threads -----------------------------------------------------------------------

def test_products_on_a_side_stream_and_threads():
    import threading
    a, b = _rand(32, 48), _rand(48, 40, seed=1)
    want = torch.mm(a, b)
    ca, cb = a.cuda(), b.cuda()
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        got = torch.mm(ca, cb)  # queued on s (the handle follows the current stream)
        got2 = torch.mm(got, cb.t())
    torch.cuda.current_stream().wait_stream(s)
    _same(got, want)
    _same(got2, torch.mm(want, b.t()))
    # one handle per thread: products from several threads at once
    results, errors = {}, []

    def work(i):
        try:
            dev = f"cuda:{i % torch.cuda.device_count()}"
            x, y = _rand(20, 30, seed=i), _rand(30, 10, seed=i + 1)
            results[i] = (torch.mm(x.to(dev), y.to(dev)).cpu(), torch.mm(x, y))
        except Exception as e:  # reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    for got_i, want_i in results.values():
        assert torch.allclose(got_i, want_i, rtol=1e-5, atol=1e-5)
