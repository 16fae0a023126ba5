#include <iostream>
#include <vector>

int main() {
    int n;
    std::cin >> n;
    std::vector<long long> a(n);
    for (auto &x : a) std::cin >> x;
    long long top = a[0];
    for (auto x : a) if (x > top) top = x;
    bool found = false;
    long long second = 0;
    for (auto x : a)
        if (x < top && (!found || x > second)) second = x, found = true;
    std::cout << second << "\n";
}
