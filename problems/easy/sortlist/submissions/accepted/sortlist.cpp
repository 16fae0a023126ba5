#include <algorithm>
#include <iostream>
#include <vector>

int main() {
    int n;
    std::cin >> n;
    std::vector<long long> a(n);
    for (auto &x : a) std::cin >> x;
    std::sort(a.begin(), a.end());
    for (int i = 0; i < n; i++) std::cout << a[i] << (i + 1 < n ? ' ' : '\n');
}
