#include <iostream>

int main() {
    long long w, h;
    std::cin >> w >> h;
    std::cout << 2 * (w + h) << " " << w * h << "\n";
}
